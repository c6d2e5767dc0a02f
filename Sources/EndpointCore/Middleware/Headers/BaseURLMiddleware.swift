#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Resolves relative endpoints against one base URL for a whole client, so the same endpoints go
/// to staging or production by configuring the client alone.
///
/// An endpoint made with a path and no base (`Endpoint(json: .get, path: "users/\(id)")`) has a
/// relative URL; this middleware joins it to the base by the rules of
/// ``URLPath/resolved(against:)`` (the base's path is kept). A request whose URL is already
/// absolute passes unchanged.
///
/// ```swift
/// let production = URLSessionHTTPClient().with(
///   BaseURLMiddleware(URL(string: "https://api.example.com/v1")!)
/// )
/// let staging = URLSessionHTTPClient().with(
///   BaseURLMiddleware(URL(string: "https://staging.example.com/v1")!)
/// )
/// let user = try await staging.call(Endpoint<User>(json: .get, path: "users/42"))
/// ```
///
/// Put it first in the chain, so every other middleware sees the resolved URL. Without it, a
/// transport refuses a relative request with ``InvalidRequest`` (`.url`).
public struct BaseURLMiddleware: Middleware {
  /// The URL relative requests are resolved against.
  public let baseURL: URL

  /// Creates the middleware.
  ///
  /// - Parameter baseURL: an `http` or `https` URL with a host, and a path if the API has one.
  public init(_ baseURL: URL) {
    self.baseURL = baseURL
  }

  /// Resolves a relative request's URL against ``baseURL``, then sends the request.
  ///
  /// - Throws: ``InvalidRequest`` (`.url`) if the base has no scheme or host, or what `next`
  ///   throws.
  public func intercept(
    _ request: HTTPRequest,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    guard request.url.scheme == nil, request.url.host == nil else {
      return try await next(request)
    }
    var request = request
    request.url = try URLPath(encoded: request.url.absoluteString).resolved(against: baseURL)
    return try await next(request)
  }
}

extension BaseURLMiddleware: CustomReflectable {
  /// The base URL without its user information and secret query values (``Redaction/redacted(_:additionalQueryNames:)``), for
  /// `dump(_:)` and LLDB's `po`.
  public var customMirror: Mirror {
    Mirror(self, children: ["baseURL": URLRedaction.redacted(baseURL)], displayStyle: .struct)
  }
}
