#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The whole exchange took longer than its deadline, so the transfer was stopped.
///
/// Every transport of the package throws this one type. The deadline is
/// ``HTTPRequest/timeout`` when the request sets one, otherwise the client's `deadline`
/// setting. It covers every redirect and the whole body, even while bytes keep arriving; the
/// transports measure it with their own timers, to the millisecond.
///
/// ```swift
/// do {
///   _ = try await client.call(endpoint)
/// } catch let error as DeadlineExceeded {
///   print(error)
///   // GET http://…: timed out, not finished after 2.001 s (deadline 2 s)
/// }
/// ```
public struct DeadlineExceeded: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL being fetched when the deadline passed.
  public let url: URL
  /// The deadline that passed.
  public let limit: Duration
  /// How long the exchange had been running when it was stopped.
  public let elapsed: Duration

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, limit: Duration, elapsed: Duration) {
    self.method = method
    self.url = url
    self.limit = limit
    self.elapsed = elapsed
  }

  /// A sentence naming the request (credentials in its URL redacted), the time taken and the
  /// deadline.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): timed out, not finished after \(elapsed.shortDescription) "
      + "(deadline \(limit.shortDescription))"
  }
}

extension DeadlineExceeded: TransportFailure {
  /// Always `true`: each attempt gets its own deadline.
  public var isTransient: Bool { true }
}

extension DeadlineExceeded: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "limit": limit,
        "elapsed": elapsed,
      ])
  }
}
