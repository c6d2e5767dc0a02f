internal import CCurl

/// A libcurl easy handle, reused from request to request by one ``CurlLoop`` (and used only on
/// its thread), with the error buffer libcurl writes its messages into.
final class EasyHandle {
  let pointer: OpaquePointer
  let errorBuffer: UnsafeMutablePointer<CChar>
  /// The transfer the handle serves, while it serves one.
  var transfer: CurlTransfer?
  /// Whether the handle is attached to the multi handle.
  var inMulti = false
  /// Whether the handle must be reset and given the loop's shared options before its next
  /// request: it is new, or its last request set options of its own.
  var needsBaseline = true
  /// Whether the handle's cookie engine is on (`curl_easy_reset` leaves it on).
  var cookieEngine = false
  /// The request header lines being built, kept for their capacity from request to request.
  var headerLines: [UInt8] = []

  init?() {
    guard let pointer = ccurl_easy_init() else { return nil }
    self.pointer = pointer
    errorBuffer = .allocate(capacity: Int(CCURL_ERROR_SIZE) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(CCURL_ERROR_SIZE) + 1)
  }

  deinit {
    ccurl_easy_cleanup(pointer)
    errorBuffer.deallocate()
  }

  /// A pointer that ``owner(of:)`` turns back into this object (stored as `CURLOPT_PRIVATE`).
  var context: UnsafeMutableRawPointer {
    Unmanaged.passUnretained(self).toOpaque()
  }

  /// The handle object whose `context` is the easy handle's `CURLOPT_PRIVATE`.
  static func owner(of easy: OpaquePointer) -> EasyHandle? {
    var value: UnsafePointer<CChar>?
    guard ccurl_easy_getinfo_string(easy, CCURLINFO_PRIVATE, &value) == CCURLE_OK,
      let value
    else { return nil }
    return Unmanaged<EasyHandle>.fromOpaque(UnsafeRawPointer(value)).takeUnretainedValue()
  }

  /// libcurl's last message for this handle, or its text for `code`.
  func message(for code: Int32) -> String {
    if errorBuffer[0] != 0 { return String(cString: errorBuffer) }
    return String(cString: ccurl_easy_strerror(code))
  }
}
