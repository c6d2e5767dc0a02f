#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient {
  /// The client was shut down: requests in flight at that moment fail with this error, and so
  /// does every request sent afterwards.
  ///
  /// See CurlHTTPClient/shutdown().
  public struct ShutDown: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request's method.
    public let method: HTTPMethod
    /// The request's URL.
    public let url: URL

    /// Creates the error.
    public init(method: HTTPMethod, url: URL) {
      self.method = method
      self.url = url
    }

    /// A sentence naming the request.
    public var description: String {
      "\(method) \(URLRedaction.redacted(url)): the CurlHTTPClient was shut down; "
        + "make a new client to send more requests"
    }
  }
}
