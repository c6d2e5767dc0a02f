#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A client was shut down: requests in flight at that moment fail with this error, and so does
/// every request sent afterwards.
///
/// `Client` is the client's type, so each client has its own error
/// (``EndpointCurl/CurlHTTPClient/ShutDown``, ``EndpointTransport/URLSessionHTTPClient/ShutDown``)
/// and its message names that client.
public struct ClientShutDown<Client>: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The request's URL.
  public let url: URL

  /// Creates the error.
  public init(method: HTTPMethod, url: URL) {
    self.method = method
    self.url = url
  }

  /// A sentence naming the request (credentials in its URL redacted) and the client.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): the \(Client.self) was shut down; "
      + "make a new client to send more requests"
  }
}

extension ClientShutDown: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(self, method: method, url: url)
  }
}
