/// Adds header fields, such as `User-Agent` or `Accept-Language`, to every request that does not
/// already set them: defaults for a whole API.
///
/// A field the request already has (by name, ignoring case) is left as the endpoint set it;
/// a default with several values for one name adds all of them.
///
/// ```swift
/// enum GitHub {
///   static let client = URLSessionHTTPClient().with(
///     try DefaultHeadersMiddleware([
///       "User-Agent": "MyApp/2.1 (+https://example.com)",
///       "Accept-Language": "en-GB, en;q=0.8",
///       "X-GitHub-Api-Version": "2022-11-28",
///     ])
///   )
/// }
/// ```
public struct DefaultHeadersMiddleware: Middleware {
  /// The fields added when a request lacks them.
  public let fields: HTTPFields

  /// Creates the middleware from fields, in order.
  public init(_ fields: HTTPFields) {
    self.fields = fields
  }

  /// Creates the middleware from a dictionary (the fields are ordered by name).
  ///
  /// - Throws: ``InvalidRequest`` (`.headerField`) naming the first invalid field.
  public init(_ fields: [String: String]) throws(InvalidRequest) {
    self.fields = try HTTPFields(fields)
  }

  /// Adds the missing fields, then sends the request.
  public func intercept(
    _ request: HTTPRequest,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    var request = request
    let present = request.headerFields
    for field in fields where !present.contains(field.name) {
      // Both name and value were validated when `fields` was built.
      try request.headerFields.append(field.value, for: field.name)
    }
    return try await next(request)
  }
}
