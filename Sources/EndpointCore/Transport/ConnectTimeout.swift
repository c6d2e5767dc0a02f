#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The connection to the server could not be made within the client's connect timeout.
///
/// Thrown by every transport whose configuration sets `connectTimeout`; apart from
/// ``IdleTimeout`` and ``DeadlineExceeded``, so a host that does not answer fails fast while a
/// slow server on a live connection still has the idle timeout. Nothing of the request reached
/// the server, so any request may be sent again (``isTransient`` is `true`).
///
/// ```swift
/// catch let error as ConnectTimeout {
///   // GET http://…: could not connect within 0.5 s (connect timeout)
///   print(error)
/// }
/// ```
public struct ConnectTimeout: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL being fetched when the timeout fired.
  public let url: URL
  /// The connect timeout that was exceeded.
  public let limit: Duration

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, limit: Duration) {
    self.method = method
    self.url = url
    self.limit = limit
  }

  /// A sentence naming the request (credentials in its URL redacted) and the limit.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): could not connect within "
      + "\(limit.shortDescription) (connect timeout)"
  }
}

extension ConnectTimeout: TransportFailure {
  /// Always `true`: no byte of the request reached the server.
  public var isTransient: Bool { true }
}

extension ConnectTimeout: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(self, method: method, url: url, ["limit": limit])
  }
}
