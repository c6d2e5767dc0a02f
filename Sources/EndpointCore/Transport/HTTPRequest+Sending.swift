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
  /// - Throws: ``InvalidMethod`` or ``InvalidURL``.
  package func checkSendable() throws {
    guard HTTPToken.isValid(method.rawValue) else { throw InvalidMethod(method: method) }
    if let reason = HTTPRequest.unsendableReason(url) {
      throw InvalidURL(input: URLRedaction.redacted(url), reason: reason)
    }
  }

  /// Why `url` cannot be sent by an HTTP transport, or `nil` when it can: the SDK sends and
  /// follows `http` and `https` URLs with a host, nothing else (no `ftp:`, `file:` or `data:`).
  package static func unsendableReason(_ url: URL) -> String? {
    let scheme = url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https" else {
      let named = url.scheme.map { "the scheme is \(HTTPToken.quotedForMessage($0, limit: 20))" }
      guard let named else {
        return "only http and https URLs are sent (a relative URL needs a client with a "
          + "BaseURLMiddleware)"
      }
      return "only http and https URLs are sent (\(named))"
    }
    guard let host = url.host, !host.isEmpty else {
      return "an http or https URL needs a host"
    }
    return nil
  }
}
