#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// No byte was sent or received for longer than the idle timeout, so the transfer was stopped.
///
/// Every transport of the package throws this one type: catch it once, whichever client sends
/// the request. The limit is the client's `idleTimeout` setting; the transports measure it with
/// their own timers, to the millisecond.
///
/// ```swift
/// do {
///   _ = try await client.call(endpoint)
/// } catch let error as IdleTimeout {
///   print(error)
///   // GET http://…: timed out, no bytes for 0.3 s (idle timeout 0.3 s)
/// }
/// ```
public struct IdleTimeout: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL being fetched when the timeout fired.
  public let url: URL
  /// The idle timeout that was exceeded.
  public let limit: Duration
  /// How long the transfer had been silent when it was stopped.
  public let silence: Duration

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, limit: Duration, silence: Duration) {
    self.method = method
    self.url = url
    self.limit = limit
    self.silence = silence
  }

  /// A sentence naming the request (credentials in its URL redacted), the silence and the limit.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): timed out, no bytes for \(silence.shortDescription) "
      + "(idle timeout \(limit.shortDescription))"
  }
}

extension IdleTimeout: TransportFailure {
  /// Always `true`: the server went quiet, and a new attempt may find it answering.
  public var isTransient: Bool { true }
}

extension IdleTimeout: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "limit": limit,
        "silence": silence,
      ])
  }
}
