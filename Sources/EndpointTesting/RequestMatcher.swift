import Foundation

/// The conditions of one stub rule; every one must hold for the rule to answer.
struct RequestMatcher: Sendable {
  enum BodyExpectation: Sendable {
    case bytes(Data)
    case text(String)
    case json(JSONTree, source: String)
  }

  struct Predicate: Sendable {
    let name: String
    let test: @Sendable (RecordedRequest) -> Bool
  }

  var method: HTTPMethod?
  var pattern: PathPattern
  var query: [PathPattern.QueryItem] = []
  var queryIsExact = false
  var headers: [(name: String, value: String)] = []
  var body: BodyExpectation?
  var predicates: [Predicate] = []

  init(method: HTTPMethod?, pattern: PathPattern) {
    self.method = method
    self.pattern = pattern
    self.query = pattern.query
  }

  /// The checks of every condition, in a fixed order, and the template's path parameters.
  func evaluate(_ request: HTTPRequest, body: Data) -> (
    checks: [MatchCheck], parameters: [String: String]
  ) {
    var checks: [MatchCheck] = []
    if let method {
      checks.append(
        method == request.method
          ? .pass("method")
          : .fail("method", expected: method.rawValue, actual: request.method.rawValue)
      )
    }
    if let origin = pattern.origin {
      let actual = PathPattern.origin(of: request.url) ?? "<none>"
      checks.append(
        origin == actual ? .pass("origin") : .fail("origin", expected: origin, actual: actual)
      )
    }
    var parameters: [String: String] = [:]
    if pattern.kind != .any {
      if let found = pattern.matchPath(request.url) {
        parameters = found
        checks.append(.pass("path"))
      } else {
        let actual = URLComponents(url: request.url, resolvingAgainstBaseURL: true)?
          .percentEncodedPath
        checks.append(
          .fail(
            "path", expected: pattern.description,
            actual: actual.map { $0.isEmpty ? "/" : $0 } ?? "")
        )
      }
    }
    if !query.isEmpty || queryIsExact {
      checks.append(checkQuery(request.url))
    }
    for header in headers {
      checks.append(checkHeader(header.name, header.value, in: request.headerFields))
    }
    if let expectation = self.body {
      checks.append(checkBody(expectation, body))
    }
    if !predicates.isEmpty {
      let stubbed = RecordedRequest(request: request, body: body, pathParameters: parameters)
      for predicate in predicates {
        checks.append(
          predicate.test(stubbed)
            ? .pass(predicate.name)
            : MatchCheck(
              part: predicate.name, passed: false, actual: "the predicate returned false")
        )
      }
    }
    return (checks, parameters)
  }

  private func checkQuery(_ url: URL) -> MatchCheck {
    let items = (URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []).map {
      PathPattern.QueryItem(name: $0.name, value: $0.value ?? "")
    }
    var remaining = items
    var missing: [PathPattern.QueryItem] = []
    for item in query {
      if let index = remaining.firstIndex(of: item) {
        remaining.remove(at: index)
      } else {
        missing.append(item)
      }
    }
    let part = queryIsExact ? "query (exact)" : "query"
    if missing.isEmpty, !queryIsExact || remaining.isEmpty { return .pass(part) }
    let expected = RequestMatcher.format(query)
    if queryIsExact {
      return .fail(part, expected: expected, actual: RequestMatcher.format(items))
    }
    // Show only the items the rule cares about, so the difference stands out.
    let names = Set(query.map(\.name))
    let relevant = items.filter { names.contains($0.name) }
    return .fail(part, expected: expected, actual: RequestMatcher.format(relevant))
  }

  /// `name=value&…`, with the values of credential parameters redacted.
  static func format(_ items: [PathPattern.QueryItem]) -> String {
    if items.isEmpty { return "<none>" }
    return items.map { item in
      let value =
        Redaction.isSensitiveQueryName(item.name)
        ? HTTPFields.redactedValue : Redaction.standard.apply(toText: item.value)
      return "\(item.name)=\(value)"
    }.joined(separator: "&")
  }

  private func checkHeader(_ name: String, _ value: String, in fields: HTTPFields) -> MatchCheck {
    let part = "header \(name)"
    let values = fields.values(for: name)
    if values.contains(value) || fields[name] == value { return .pass(part) }
    if HTTPFields.isSensitive(name) {
      // Credentials never appear in messages, only whether one was there.
      return .fail(
        part,
        expected: HTTPFields.redactedValue,
        actual: values.isEmpty ? "<none>" : "a different \(HTTPFields.redactedValue) value"
      )
    }
    return .fail(
      part, expected: value, actual: values.isEmpty ? "<none>" : values.joined(separator: ", "))
  }

  /// Bodies are shown with secrets hidden by the SDK's rule, as in every error.
  private func checkBody(_ expectation: BodyExpectation, _ body: Data) -> MatchCheck {
    switch expectation {
    case .bytes(let expected):
      if expected == body { return .pass("body") }
      return .fail(
        "body",
        expected: Redaction.standard.preview(of: expected, limit: 200),
        actual: Redaction.standard.preview(of: body, limit: 200)
      )
    case .text(let expected):
      if Data(expected.utf8) == body { return .pass("body") }
      return .fail(
        "body",
        expected: Redaction.standard.preview(of: Data(expected.utf8), limit: 200),
        actual: Redaction.standard.preview(of: body, limit: 200)
      )
    case .json(let expected, let source):
      guard let actual = JSONTree(parsing: body) else {
        return .fail(
          "body (JSON)",
          expected: source,
          actual: "not JSON: " + Redaction.standard.preview(of: body, limit: 200)
        )
      }
      if actual == expected { return .pass("body (JSON)") }
      return .fail(
        "body (JSON)",
        expected: source,
        actual: Redaction.standard.preview(of: Data(actual.compact.utf8), limit: 200)
      )
    }
  }

  /// A one-line description such as `GET /rates?currency=USD header Accept=application/json`.
  var summary: String {
    var parts = [method?.rawValue ?? "any method", pattern.description]
    if !query.isEmpty, pattern.query != query || queryIsExact {
      parts.append((queryIsExact ? "query exactly " : "query ") + RequestMatcher.format(query))
    }
    for header in headers {
      let value = HTTPFields.isSensitive(header.name) ? HTTPFields.redactedValue : header.value
      parts.append("header \(header.name): \(value)")
    }
    switch body {
    case .bytes(let data): parts.append("body \(Redaction.none.preview(of: data, limit: 60))")
    case .text(let text):
      parts.append("body \(Redaction.none.preview(of: Data(text.utf8), limit: 60))")
    case .json(_, let source): parts.append("JSON body \(source)")
    case nil: break
    }
    for predicate in predicates {
      parts.append("where \(predicate.name)")
    }
    return parts.joined(separator: " ")
  }
}
