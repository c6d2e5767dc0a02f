internal import CCurl

/// The process's libcurl: opened with `dlopen` and initialised once, never cleaned up
/// (Foundation's networking may share the same library in the process).
enum CurlLibrary {
  /// The shared library looked for.
  static let defaultName = CCURL_LIBRARY_NAME

  /// The oldest version accepted, as libcurl numbers them (`0xXXYYZZ`).
  static let minimumVersion = UInt32(CCURL_MINIMUM_VERSION)

  /// `7.68.0`.
  static var minimumVersionText: String {
    "\(minimumVersion >> 16).\((minimumVersion >> 8) & 0xff).\(minimumVersion & 0xff)"
  }

  /// Opens `name` and checks its functions and version.
  ///
  /// With `install`, the first library that loads becomes the one every call goes to; without,
  /// the library is only probed and closed again.
  static func load(
    _ name: String,
    minimumVersion: UInt32 = minimumVersion,
    install: Bool
  ) -> TransportFailure? {
    var message = [CChar](repeating: 0, count: 1024)
    let status = message.withUnsafeMutableBufferPointer { buffer in
      ccurl_load(name, minimumVersion, install ? 1 : 0, buffer.baseAddress, buffer.count)
    }
    guard status != 0 else { return nil }
    let reason = message.withUnsafeBufferPointer { buffer in
      String(cString: buffer.baseAddress!)
    }
    return unavailable(libraryName: name, reason: reason)
  }

  /// `nil` once libcurl is loaded and initialised, otherwise why it cannot be used. Evaluated
  /// once per process, on first use.
  static let unavailable: TransportFailure? = {
    #if os(Linux)
      if let failure = load(defaultName, install: true) { return failure }
      let code = ccurl_global_init(CLong(CCURL_GLOBAL_DEFAULT))
      guard code == CCURLE_OK else {
        return unavailable(
          libraryName: defaultName,
          reason: "curl_global_init failed with error \(code)"
        )
      }
      return nil
    #else
      // The client's loop is built on epoll; on Apple platforms URLSession is the native
      // transport and EndpointTransport's client is the one to use.
      return unavailable(
        libraryName: defaultName,
        reason: "EndpointCurl runs on Linux only; on Apple platforms use URLSessionHTTPClient "
          + "from EndpointTransport"
      )
    #endif
  }()

  /// Whether the loaded libcurl busy-polls while an HTTP/2 upload waits for flow control
  /// (versions before 8.0.0; curl issue 10618).
  static var spinsOnHTTP2Uploads: Bool { ccurl_version_number() < 0x08_00_00 }

  /// The bytes an HTTP/2 stream may send before the server's first window update (RFC 9113,
  /// section 6.9.2): a body this size or smaller never waits for flow control.
  static let http2InitialWindow: Int64 = 65_535

  /// The loaded library's version, such as `7.88.1`.
  static var version: String {
    String(cString: ccurl_version())
  }
}

extension CurlLibrary {
  /// The failure every curl client throws when `libraryName` cannot be used, for `reason`.
  static func unavailable(libraryName: String, reason: String) -> TransportFailure {
    TransportFailure(
      .libraryUnavailable, method: nil, url: nil,
      redactedMessage:
        "libcurl is unavailable: \(reason); EndpointCurl needs \(libraryName) version "
        + "\(minimumVersionText) or newer (Debian and Ubuntu: apt-get install libcurl4)",
      isTransient: false)
  }
}
