/// A source of access tokens for ``AuthorizationMiddleware``, able to get a new one when the
/// server rejects the current one.
///
/// The middleware asks for ``token()`` before every request, so the provider owns any caching
/// and may renew a token it knows has expired. When a request comes back `401 Unauthorized`, the
/// middleware calls ``refreshToken(rejected:)`` once for all the requests that were rejected at
/// the same time; after it returns, ``token()`` must return the new token.
///
/// ```swift
/// actor OAuthTokens: TokenProvider {
///   private var accessToken: String
///   private let refreshToken: String
///   init(accessToken: String, refreshToken: String) {
///     self.accessToken = accessToken
///     self.refreshToken = refreshToken
///   }
///   func token() async throws -> String { accessToken }
///   func refreshToken(rejected: String) async throws -> String {
///     accessToken = try await authServer.exchange(refreshToken)
///     return accessToken
///   }
/// }
/// let client = transport.with(AuthorizationMiddleware(tokens: OAuthTokens(...)))
/// ```
public protocol TokenProvider: Sendable {
  /// The token to send with the next request.
  func token() async throws -> String

  /// Gets a new token after the server answered `401 Unauthorized` to `rejected`.
  ///
  /// Called at most once at a time by a given middleware, however many requests were rejected.
  /// - Parameter rejected: the token the server refused.
  /// - Returns: the new token, which ``token()`` returns from now on.
  /// - Throws: any error; the middleware reports it as ``InvalidRequest`` (`.credentials`).
  func refreshToken(rejected: String) async throws -> String
}
