#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// URLSession cannot send this request as it is, so it was not sent.
///
/// For example, URLSession refuses a `GET` request with a body on every platform.
public struct UnsupportedRequest: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The request's URL.
  public let url: URL
  /// Why the request cannot be sent.
  public let reason: String

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, reason: String) {
    self.method = method
    self.url = url
    self.reason = reason
  }

  /// A sentence naming the request and the reason.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)) cannot be sent: \(reason)"
  }
}

extension UnsupportedRequest: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(self, method: method, url: url, ["reason": reason])
  }
}
