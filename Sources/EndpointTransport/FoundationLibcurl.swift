#if canImport(FoundationNetworking)
  import Foundation

  /// The libcurl that Foundation's URLSession runs on, on Linux.
  enum FoundationLibcurl {
    /// Its `curl_version_info` feature bits (which content codings it decodes, among others),
    /// or 0 when it cannot be found.
    static let features: Int32 = {
      // FoundationNetworking links `libcurl.so.4`: the one already loaded is the one asked.
      guard
        let handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD)
          ?? dlopen("libcurl.so.4", RTLD_NOW),
        let symbol = dlsym(handle, "curl_version_info")
      else { return 0 }
      typealias VersionInfo = @convention(c) (Int32) -> UnsafeRawPointer?
      // CURLVERSION_TENTH (libcurl 7.77): the struct only grows at its end.
      guard let info = unsafeBitCast(symbol, to: VersionInfo.self)(9) else { return 0 }
      // `features` follows `age` (an int), `version`, `version_num` (an unsigned int) and
      // `host`: four pointer-sized slots in, as C lays the struct out.
      return info.load(fromByteOffset: 4 * MemoryLayout<UnsafeRawPointer>.stride, as: Int32.self)
    }()
  }
#endif
