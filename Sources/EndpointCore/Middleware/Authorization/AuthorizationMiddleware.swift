import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Adds an `Authorization` field to every request, and with a ``TokenProvider`` gets a new token
/// and retries once when the server answers `401 Unauthorized`.
///
/// Limit the credentials to the origins they are meant for with ``limited(to:)``: a request to
/// any other origin (an absolute URL to another host, a pagination link, a pre-signed download)
/// is sent without them.
///
/// ```swift
/// let github = transport.with(
///   AuthorizationMiddleware.bearer(token)
///     .limited(to: [URL(string: "https://api.github.com")!])
/// )
/// // Mailchimp: any user name, the API key as the password.
/// let mailchimp = transport.with(
///   AuthorizationMiddleware.basic(username: "anystring", password: apiKey)
///     .limited(to: [api])
/// )
/// ```
///
/// Without ``limited(to:)`` the credentials go with every request the client sends.
///
/// Refreshing tokens:
///
/// ```swift
/// let client = transport.with(
///   AuthorizationMiddleware.bearer(
///     token: { await session.accessToken },
///     refresh: { rejected in try await session.refresh(replacing: rejected) }
///   )
/// )
/// ```
///
/// The rules with a token provider:
/// - A `401` makes the middleware get a new token and send the request once more; a `401` to that
///   second attempt is returned to the caller as is, so there is never a loop.
/// - Requests rejected together share one refresh: the first `401` starts it, the others wait
///   for it, and a request rejected with a token that a refresh already replaced retries with the
///   new token at once.
/// - A failed refresh throws ``InvalidRequest`` (`.credentials`) to every waiting request.
/// - A request whose body is streamed cannot be sent again: its `401` is returned as is.
/// - A request that already carries an `Authorization` field is sent unchanged (for a login
///   endpoint inside an API that otherwise uses tokens), and so is a request to an origin
///   outside ``limited(to:)``.
///
/// One instance holds the token state: create it once per API and share it between clients.
public struct AuthorizationMiddleware: Middleware {
  private enum Credentials: Sendable {
    case fixed(String)
    case tokens(scheme: String, store: TokenStore)
  }

  private let credentials: Credentials

  /// The origins (scheme, host, port) that get the credentials, or `nil` for every origin.
  public private(set) var origins: [URL]?

  /// A copy that adds credentials only to requests for the origins of `urls` (scheme, host and
  /// port; default ports made explicit, paths ignored); every other request passes unchanged.
  ///
  /// ```swift
  /// let auth = AuthorizationMiddleware.bearer(token).limited(to: [api])
  /// ```
  public func limited(to urls: [URL]) -> AuthorizationMiddleware {
    var copy = self
    copy.origins = urls
    return copy
  }

  /// Whether requests for `url` get the credentials.
  public func authorizes(_ url: URL) -> Bool {
    guard let origins else { return true }
    return origins.contains { HTTPURL.sameOrigin($0, url) }
  }

  /// Sends `value` as the `Authorization` field of every request, such as `"Token abc"`.
  public init(headerValue value: String) {
    credentials = .fixed(value)
  }

  /// Sends tokens from `tokens` as `scheme token`, refreshing them on `401`.
  ///
  /// - Parameters:
  ///   - scheme: the authentication scheme put before the token.
  ///   - tokens: gives the current token and gets a new one.
  public init(scheme: String = "Bearer", tokens: some TokenProvider) {
    credentials = .tokens(scheme: scheme, store: TokenStore(provider: tokens))
  }

  /// HTTP Basic authentication (RFC 7617): `Basic base64(username:password)`.
  ///
  /// The user name must not contain `:`; the server would split it there.
  public static func basic(username: String, password: String) -> AuthorizationMiddleware {
    let encoded = Data("\(username):\(password)".utf8).base64EncodedString()
    return AuthorizationMiddleware(headerValue: "Basic \(encoded)")
  }

  /// A fixed bearer token: `Bearer token`.
  public static func bearer(_ token: String) -> AuthorizationMiddleware {
    AuthorizationMiddleware(headerValue: "Bearer \(token)")
  }

  /// Bearer tokens from two closures: `token` is called before every request, `refresh` after a
  /// `401` (once for all the requests rejected together) and must make `token` return the new one.
  ///
  /// - Parameters:
  ///   - token: the current token.
  ///   - refresh: gets a new token, given the rejected one.
  public static func bearer(
    token: @escaping @Sendable () async throws -> String,
    refresh: @escaping @Sendable (_ rejected: String) async throws -> String
  ) -> AuthorizationMiddleware {
    AuthorizationMiddleware(tokens: ClosureTokenProvider(current: token, refresh: refresh))
  }

  /// Adds the credentials and, with a token provider, refreshes and retries once on `401`.
  ///
  /// - Throws: ``InvalidRequest`` (`.headerField`) if a credential holds a control character,
  ///   ``InvalidRequest`` (`.credentials`) if a refresh failed, the provider's error, or the error of `next`.
  public func intercept(
    _ request: HTTPRequest,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    if request.headerFields.contains("Authorization") || !authorizes(request.url) {
      return try await next(request)
    }
    switch credentials {
    case .fixed(let value):
      var request = request
      try request.headerFields.set(value, for: "Authorization")
      return try await next(request)
    case .tokens(let scheme, let store):
      do {
        return try await send(request, scheme: scheme, store: store, next: next)
      } catch let error as TokenStore.RefreshError {
        throw InvalidRequest.tokenRefreshFailed(
          method: request.method, url: request.url, underlyingError: error.underlying)
      }
    }
  }

  private func send(
    _ request: HTTPRequest,
    scheme: String,
    store: TokenStore,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let token = try await store.token()
    var authorized = request
    try authorized.headerFields.set("\(scheme) \(token)", for: "Authorization")
    let (response, body) = try await next(authorized)
    guard response.status == 401, request.body?.isReplayable ?? true else {
      return (response, body)
    }
    await body.discard()
    let replacement = try await store.replacement(for: token)
    try Task.checkCancellation()
    try authorized.headerFields.set("\(scheme) \(replacement)", for: "Authorization")
    return try await next(authorized)
  }
}

extension AuthorizationMiddleware: CustomReflectable {
  /// The credential's kind without its value (the `Authorization` value hidden as
  /// ``HTTPFields/redactedValue``, a token provider by its type) and the origins, their URLs
  /// without credentials, so `dump(_:)` of a client never shows the credential it sends.
  public var customMirror: Mirror {
    let shown: String =
      switch credentials {
      case .fixed: "Authorization: \(HTTPFields.redactedValue)"
      case .tokens(let scheme, let store): "\(scheme) tokens from \(store.providerType)"
      }
    return Mirror(
      self,
      children: [
        "credentials": shown,
        "origins": origins?.map { URLRedaction.redacted($0) } as Any,
      ],
      displayStyle: .struct)
  }
}

extension InvalidRequest {
  /// The server answered `401 Unauthorized` and refreshing the access token failed with
  /// `underlyingError`, the token provider's error.
  static func tokenRefreshFailed(
    method: HTTPMethod, url: URL, underlyingError: any Error
  ) -> Self {
    Self(
      .credentials,
      subject: "\(method) \(Redaction.standard.apply(to: url)) was answered 401 Unauthorized and "
        + "refreshing the access token failed",
      reason: Redaction.standard.apply(toText: String(describing: underlyingError)),
      method: method, url: url, underlyingError: underlyingError)
  }
}
