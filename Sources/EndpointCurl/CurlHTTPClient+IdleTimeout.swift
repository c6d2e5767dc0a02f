#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient {
  /// No byte was sent or received for longer than the idle timeout, so the transfer was stopped.
  ///
  /// Set the limit with CurlHTTPClient/Configuration/idleTimeout. The client measures it on
  /// its own loop, to the millisecond. Time a streamed body spends paused because its reader is
  /// behind does not count: the server is not silent then, the reader is slow.
  ///
  /// ```swift
  /// do {
  ///   _ = try await client.call(endpoint)
  /// } catch let error as CurlHTTPClient.IdleTimeout {
  ///   print(error)  // GET http://… : no bytes for 0.3 s (idle timeout 0.3 s)
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

    /// A sentence naming the request, the silence and the limit.
    public var description: String {
      "\(method) \(URLRedaction.redacted(url)): no bytes for \(silence.shortDescription) "
        + "(idle timeout \(limit.shortDescription))"
    }
  }
}
