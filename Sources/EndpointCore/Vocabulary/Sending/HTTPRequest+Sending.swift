import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPRequest {
  /// Checks what every transport checks before a byte is sent, whoever built or changed the
  /// request (``Endpoint/request()``, a hand-built value, a middleware): the method is an
  /// RFC 9110 token, and the URL is `http` or `https` with a host.
  ///
  /// Header fields need no check here: ``HTTPFields`` refuses a bad field as it goes in.
  ///
  /// - Throws: ``InvalidRequest`` of kind `.method`, `.option` or `.url`.
  package func checkSendable() throws {
    guard HTTPToken.isValid(method.rawValue) else {
      throw InvalidRequest.invalidMethod(method, url: url)
    }
    try options.check()
    if let reason = HTTPURL.unsendableReason(url) {
      throw InvalidRequest.invalidURL(
        URLRedaction.redacted(url), reason: reason, method: method, url: url)
    }
  }
}
