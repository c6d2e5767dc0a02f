import Foundation

/// A request as a stub rule sees it: the request, its complete body and the values of the
/// rule's path placeholders.
///
/// Custom predicates and computed responses receive one:
///
/// ```swift
/// stub.on(.put, "/todos/{id}").reply { request in
///   let todo = try request.decode(Todo.self)
///   let matches = request.pathParameters["id"] == "\(todo.id)"
///   return .json(todo, status: matches ? 200 : 409)
/// }
/// ```
public struct StubbedRequest: Sendable, CustomStringConvertible {
  /// The request; its body, if it had one, is held in memory.
  public let request: HTTPRequest
  /// The complete request body (empty when there was none).
  public let body: Data
  /// The values of the matching rule's `{name}` placeholders, percent-decoded.
  public let pathParameters: [String: String]

  /// Creates a stubbed request; useful to unit-test a computed response on its own.
  public init(request: HTTPRequest, body: Data, pathParameters: [String: String] = [:]) {
    var request = request
    if request.body != nil || !body.isEmpty { request.body = HTTPBody(body) }
    self.request = request
    self.body = body
    self.pathParameters = pathParameters
  }

  /// The request method.
  public var method: HTTPMethod { request.method }
  /// The full URL.
  public var url: URL { request.url }
  /// The header fields.
  public var headerFields: HTTPFields { request.headerFields }

  /// The query items of the URL, percent-decoded, in order.
  public var queryItems: [URLQueryItem] {
    URLComponents(url: request.url, resolvingAgainstBaseURL: true)?.queryItems ?? []
  }

  /// The value of the first query item called `name`, if any.
  public func query(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The body as UTF-8 text, or `nil` if it is not valid UTF-8.
  public var text: String? {
    String(validating: body, as: UTF8.self)
  }

  /// Decodes the body as JSON.
  ///
  /// - Throws: the decoder's error when the body is not a valid `Value`.
  public func decode<Value: Decodable>(
    _ type: Value.Type,
    decoder: JSONDecoder = JSONDecoder()
  ) throws -> Value {
    try decoder.decode(type, from: body)
  }

  /// `METHOD URL`.
  public var description: String { request.description }
}

extension StubbedRequest: CustomReflectable {
  /// The request (its mirror hides its secrets), the body as a bounded preview with its secrets
  /// hidden, and the path parameters, for `dump(_:)` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "request": request,
        "body": Redaction.standard.preview(
          of: body, contentType: request.headerFields["Content-Type"]),
        "pathParameters": pathParameters,
      ],
      displayStyle: .struct)
  }
}
