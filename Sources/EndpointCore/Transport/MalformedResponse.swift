#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What came back was not an HTTP response: no status line, or one that cannot be read.
///
/// A transport never makes up a status for such bytes (an answer with no status is not a `200`).
public struct MalformedResponse: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL that answered.
  public let url: URL
  /// What was wrong with the response, in a few words.
  public let reason: String

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, reason: String) {
    self.method = method
    self.url = url
    self.reason = reason
  }

  /// A sentence naming the request (credentials in its URL redacted) and what was wrong.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): the server's answer is not a valid HTTP "
      + "response (\(reason))"
  }
}

extension MalformedResponse: TransportFailure {
  /// Always `false`: the server answers the same way again.
  public var isTransient: Bool { false }
}

extension MalformedResponse: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(self, method: method, url: url, ["reason": reason])
  }
}
