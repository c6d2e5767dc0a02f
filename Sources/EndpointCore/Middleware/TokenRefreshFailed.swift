#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The server rejected the access token (`401 Unauthorized`) and getting a new one failed.
///
/// Thrown by ``AuthorizationMiddleware`` to every request that was waiting for the refresh. The
/// next rejected request tries to refresh again.
///
/// ```swift
/// do {
///   _ = try await client.call(endpoint)
/// } catch let error as TokenRefreshFailed {
///   signOut(because: error.underlying)
/// }
/// ```
public struct TokenRefreshFailed: Error, Sendable, CustomStringConvertible {
  /// The rejected request's method.
  public let method: HTTPMethod
  /// The rejected request's URL.
  public let url: URL
  /// The error thrown by ``TokenProvider/refreshToken(rejected:)``.
  public let underlying: any Error

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, underlying: any Error) {
    self.method = method
    self.url = url
    self.underlying = underlying
  }

  /// A sentence naming the request (secret query parameters hidden) and the refresh error.
  public var description: String {
    "\(method) \(Redaction.standard.apply(to: url)) was answered 401 Unauthorized and "
      + "refreshing the access token failed: "
      + Redaction.standard.apply(toText: String(describing: underlying))
  }
}

extension TokenRefreshFailed: CustomReflectable {
  /// The stored properties with the URL and the underlying error shown as ``description`` shows
  /// them, for `dump(_:)`, LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "method": method,
        "url": Redaction.standard.apply(to: url),
        "underlying": Redaction.standard.apply(toText: String(describing: underlying)),
      ],
      displayStyle: .struct)
  }
}
