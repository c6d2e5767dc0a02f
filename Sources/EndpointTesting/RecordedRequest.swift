import Foundation

/// A request a ``StubClient`` received: the request, its complete body, the values of the
/// rule's path placeholders, the rule that answered it and how it ended.
///
/// ``StubClient/requests`` lists them:
///
/// ```swift
/// #expect(stub.requests.map(\.request.method) == [.get, .post])
/// #expect(stub.requests[1].body == Data(#"{"title":"Milk"}"#.utf8))
/// #expect(stub.requests.map(\.status) == [200, 201])
/// ```
///
/// Custom predicates and computed responses receive one too, before it has ended:
///
/// ```swift
/// stub.on(.put, "/todos/{id}").reply { request in
///   let todo = try request.decode(Todo.self)
///   let matches = request.pathParameters["id"] == "\(todo.id)"
///   return .json(todo, status: matches ? 200 : 409)
/// }
/// ```
public struct RecordedRequest: Sendable, CustomStringConvertible {
  /// How a recorded request ended.
  enum Outcome: Sendable, Hashable {
    /// Still waiting: the rule's delay or hang has not finished.
    case pending
    /// Answered with this status.
    case response(status: Int)
    /// The rule threw an error; its description.
    case error(String)
    /// The caller's task was cancelled while the rule was waiting.
    case cancelled
    /// No rule matched; the call threw ``TestDoubleFailure/Kind/noMatchingStub``.
    case noMatch
  }

  /// The request; its body, if it had one, is held in memory.
  public let request: HTTPRequest
  /// The complete request body (empty when there was none).
  public let body: Data
  /// The values of the matching rule's `{name}` placeholders, percent-decoded.
  public let pathParameters: [String: String]
  /// The number of the rule that answered (as in `#1`); `nil` when none matched, and in a custom
  /// predicate, which runs before a rule is chosen.
  public let rule: Int?
  /// How the request ended.
  var outcome: Outcome

  /// Creates a request as a rule sees it, not yet answered; useful to unit-test a computed
  /// response on its own.
  public init(request: HTTPRequest, body: Data, pathParameters: [String: String] = [:]) {
    self.init(request: request, body: body, pathParameters: pathParameters, rule: nil)
  }

  init(
    request: HTTPRequest, body: Data, pathParameters: [String: String] = [:], rule: Int?,
    outcome: Outcome = .pending
  ) {
    var request = request
    if request.body != nil || !body.isEmpty { request.body = HTTPBody(body) }
    self.request = request
    self.body = body
    self.pathParameters = pathParameters
    self.rule = rule
    self.outcome = outcome
  }

  /// The status the rule answered with; `nil` while it waits, and when it threw, the caller
  /// cancelled or no rule matched.
  public var status: Int? {
    if case .response(let status) = outcome { status } else { nil }
  }

  /// The description of the error the rule threw, if it threw one.
  public var error: String? {
    if case .error(let text) = outcome { text } else { nil }
  }

  /// Whether the caller's task was cancelled while the rule was waiting.
  public var wasCancelled: Bool { outcome == .cancelled }

  /// Whether the request has not ended yet: the rule's delay or hang has not finished, or a
  /// predicate or computed response is looking at it.
  public var isPending: Bool { outcome == .pending }

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

  /// `METHOD URL → outcome`.
  public var description: String {
    let result: String
    switch outcome {
    case .pending: result = "pending"
    case .response(let status): result = "\(status)"
    case .error(let text): result = "error: " + Redaction.standard.apply(toText: text)
    case .cancelled: result = "cancelled"
    case .noMatch: result = "no matching rule"
    }
    let by = rule.map { " (rule #\($0))" } ?? ""
    return "\(request) → \(result)\(by)"
  }
}

extension RecordedRequest: CustomReflectable {
  /// The request (its mirror hides its secrets), the body as a bounded preview with its secrets
  /// hidden, the path parameters, the rule and the outcome, an error's text redacted as
  /// ``description`` redacts it.
  public var customMirror: Mirror {
    let shownOutcome: Outcome =
      if case .error(let text) = outcome { .error(Redaction.standard.apply(toText: text)) } else {
        outcome
      }
    return Mirror(
      self,
      children: [
        "request": request,
        "body": Redaction.standard.preview(
          of: body, contentType: request.headerFields["Content-Type"]),
        "pathParameters": pathParameters,
        "rule": rule as Any,
        "outcome": shownOutcome,
      ],
      displayStyle: .struct)
  }
}
