/// A middleware made from a closure, for one-off steps that do not need a type of their own.
///
/// ```swift
/// let tracing = ClosureMiddleware { request, next in
///   var request = request
///   try request.headerFields.set(UUID().uuidString, for: "X-Request-ID")
///   return try await next(request)
/// }
/// let client = transport.with(tracing)
/// ```
public struct ClosureMiddleware: Middleware {
  private let body: @Sendable (HTTPRequest, Next) async throws -> (HTTPResponse, HTTPBody)

  /// Creates the middleware.
  ///
  /// - Parameter intercept: handles a request; call `next` to pass it on (any number of times).
  public init(
    _ intercept: @escaping @Sendable (HTTPRequest, Next) async throws -> (HTTPResponse, HTTPBody)
  ) {
    body = intercept
  }

  /// Runs the closure.
  public func intercept(
    _ request: HTTPRequest,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await body(request, next)
  }
}
