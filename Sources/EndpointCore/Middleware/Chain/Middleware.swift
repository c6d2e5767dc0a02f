/// A step between the caller and a client: it can change the request, answer it itself, inspect
/// or replace the response, and call the next step more than once (for retries).
///
/// ```swift
/// struct UserAgent: Middleware {
///   func intercept(
///     _ request: HTTPRequest, next: Next
///   ) async throws -> (HTTPResponse, HTTPBody) {
///     var request = request
///     try request.headerFields.set("MyApp/1.0", for: "User-Agent")
///     return try await next(request)
///   }
/// }
/// let client = URLSessionHTTPClient().with(UserAgent())
/// ```
public protocol Middleware: Sendable {
  /// The rest of the chain: the following middleware, or the client itself.
  typealias Next = @Sendable (HTTPRequest) async throws -> (HTTPResponse, HTTPBody)

  /// Handles one request, usually by calling `next` with it.
  ///
  /// `next` may outlive the call: a middleware that shares one exchange between callers, or
  /// revalidates a cached response in the background, keeps it in a task of its own. Most
  /// middleware call it in place and can declare the parameter as plain `Next`.
  func intercept(_ request: HTTPRequest, next: @escaping Next) async throws -> (
    HTTPResponse, HTTPBody
  )
}

/// A client that passes every request through a list of middleware before the base client.
///
/// Made by `with(_:)`: the first middleware in the list sees
/// the request first and the response last.
public struct MiddlewareClient<Base: HTTPClient>: HTTPClient {
  /// The client that sends the requests.
  public let base: Base
  /// The middleware, outermost first.
  public let middleware: [any Middleware]

  /// Creates the chain.
  public init(base: Base, middleware: [any Middleware]) {
    self.base = base
    self.middleware = middleware
  }

  /// Runs the request through every middleware, then the base client.
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    try await send(request, from: middleware[...], last: base.send)
  }

  /// Runs `request` through `chain`, then `last`: the base client's `send`, or its upload or
  /// download, so every kind of call passes the same middleware.
  func send(
    _ request: HTTPRequest,
    from chain: ArraySlice<any Middleware>,
    last: @escaping @Sendable (HTTPRequest) async throws -> (HTTPResponse, HTTPBody)
  ) async throws -> (HTTPResponse, HTTPBody) {
    guard let first = chain.first else { return try await last(request) }
    let rest = chain.dropFirst()
    return try await first.intercept(request) { next in
      try await send(next, from: rest, last: last)
    }
  }
}

extension HTTPClient {
  /// This client with `middleware` in front of it; the first one sees the request first.
  ///
  /// ```swift
  /// let client = base.with(logging, authorization, retry)
  /// // logging → authorization → retry → base
  /// ```
  public func with(_ middleware: any Middleware...) -> MiddlewareClient<Self> {
    with(middleware)
  }

  /// This client with a list of middleware in front of it; the first one sees the request first.
  public func with(_ middleware: [any Middleware]) -> MiddlewareClient<Self> {
    MiddlewareClient(base: self, middleware: middleware)
  }
}
