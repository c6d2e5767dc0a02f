import Foundation

/// A stub rule being described: add conditions, then give its response with a `reply` method.
///
/// Made by ``StubClient/on(_:_:)``. Each condition method returns a new builder; the rule exists
/// only once a `reply`, `replies`, `fail` or `hang` method registers it.
///
/// ```swift
/// stub.on(.post, "/todos")
///   .header("Authorization", "Bearer token-1")
///   .body(json: #"{"title": "Milk", "done": false}"#)
///   .reply(status: 201, json: Todo(id: 1, title: "Milk"))
/// ```
public struct StubRuleBuilder: Sendable {
  let client: StubClient
  var matcher: RequestMatcher

  /// Requires these query items; the request may have others. Order does not matter; a name
  /// given twice requires both values.
  public func query(_ items: KeyValuePairs<String, String>) -> StubRuleBuilder {
    var copy = self
    copy.matcher.query += items.map { PathPattern.QueryItem(name: $0.key, value: $0.value) }
    return copy
  }

  /// Requires exactly these query items and no others, in any order.
  public func query(exactly items: KeyValuePairs<String, String>) -> StubRuleBuilder {
    var copy = self
    copy.matcher.query = items.map { PathPattern.QueryItem(name: $0.key, value: $0.value) }
    copy.matcher.queryIsExact = true
    return copy
  }

  /// Requires these query items, built at run time; the request may have others. An item
  /// without a value matches a name given without one (`?flag`) or with an empty one.
  ///
  /// ```swift
  /// let filters = selected.map { URLQueryItem(name: "tag", value: $0) }
  /// stub.on(.get, "/posts").query(filters).reply(json: posts)
  /// ```
  public func query(_ items: [URLQueryItem]) -> StubRuleBuilder {
    var copy = self
    copy.matcher.query += items.map { PathPattern.QueryItem(name: $0.name, value: $0.value ?? "") }
    return copy
  }

  /// Requires exactly these query items, built at run time, and no others, in any order.
  public func query(exactly items: [URLQueryItem]) -> StubRuleBuilder {
    var copy = self
    copy.matcher.query = items.map { PathPattern.QueryItem(name: $0.name, value: $0.value ?? "") }
    copy.matcher.queryIsExact = true
    return copy
  }

  /// Requires a header field called `name` (in any case) with exactly `value`.
  public func header(_ name: String, _ value: String) -> StubRuleBuilder {
    var copy = self
    copy.matcher.headers.append((name, value))
    return copy
  }

  /// Requires every one of these header fields; the request may have others.
  public func headers(_ fields: [String: String]) -> StubRuleBuilder {
    var copy = self
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      copy.matcher.headers.append((name, value))
    }
    return copy
  }

  /// Requires exactly these body bytes.
  public func body(_ data: Data) -> StubRuleBuilder {
    var copy = self
    copy.matcher.body = .bytes(data)
    return copy
  }

  /// Requires exactly this body text (UTF-8).
  public func body(text: String) -> StubRuleBuilder {
    var copy = self
    copy.matcher.body = .text(text)
    return copy
  }

  /// Requires a JSON body equal in meaning to `json`: key order, spacing and number spelling
  /// (`1.0` and `1`) do not matter.
  ///
  /// Text that is not valid JSON makes the stub throw ``TestDoubleFailure/Kind/invalidStub``.
  public func body(json: String) -> StubRuleBuilder {
    var copy = self
    if let tree = JSONTree(parsing: json) {
      copy.matcher.body = .json(tree, source: tree.compact)
    } else {
      copy.matcher.body = .bytes(Data(json.utf8))
      copy.problem = "the expected JSON body is not valid JSON: \(json)"
    }
    return copy
  }

  /// Requires a JSON body equal in meaning to `value` encoded with `encoder`.
  public func body(
    json value: some Encodable,
    encoder: JSONEncoder = JSONEncoder()
  ) -> StubRuleBuilder {
    do {
      let data = try encoder.encode(value)
      guard let text = String(data: data, encoding: .utf8) else {
        return invalid("the encoder did not produce UTF-8")
      }
      return body(json: text)
    } catch {
      return invalid("the expected body of type \(type(of: value)) could not be encoded: \(error)")
    }
  }

  /// Requires `predicate` to return `true`; `description` names it in messages.
  ///
  /// ```swift
  /// stub.on(.get, .any)
  ///   .matching("has a trace id") { $0.headerFields.contains("X-Trace-ID") }
  ///   .reply(status: 204)
  /// ```
  public func matching(
    _ description: String,
    _ predicate: @escaping @Sendable (RecordedRequest) -> Bool
  ) -> StubRuleBuilder {
    var copy = self
    copy.matcher.predicates.append(RequestMatcher.Predicate(name: description, test: predicate))
    return copy
  }

  /// Registers the rule with one response, given every time it matches until limited with
  /// ``StubRule/once()`` or ``StubRule/times(_:)``.
  @discardableResult
  public func reply(_ response: StubResponse) -> StubRule {
    register([response], limit: nil)
  }

  /// Registers the rule answering with a status, header fields and body bytes.
  @discardableResult
  public func reply(
    status: Int = 200,
    headers: [String: String] = [:],
    body: Data = Data()
  ) -> StubRule {
    reply(.status(status, headers: headers, body: body))
  }

  /// Registers the rule answering with UTF-8 text.
  @discardableResult
  public func reply(
    status: Int = 200,
    headers: [String: String] = [:],
    text: String
  ) -> StubRule {
    reply(.text(text, status: status, headers: headers))
  }

  /// Registers the rule answering with a value encoded as JSON.
  @discardableResult
  public func reply(
    status: Int = 200,
    headers: [String: String] = [:],
    json value: some Encodable,
    encoder: JSONEncoder = JSONEncoder()
  ) -> StubRule {
    reply(.json(value, status: status, headers: headers, encoder: encoder))
  }

  /// Registers the rule answering with JSON text sent as written (it must be valid JSON).
  @discardableResult
  public func reply(
    status: Int = 200,
    headers: [String: String] = [:],
    json text: String
  ) -> StubRule {
    reply(.json(text, status: status, headers: headers))
  }

  /// Registers the rule answering with a response computed from each request.
  ///
  /// ```swift
  /// let store = Mutex([Int: Todo]())
  /// stub.on(.get, "/todos/{id}").reply { request in
  ///   let id = Int(request.pathParameters["id"] ?? "")
  ///   guard let todo = store.withLock({ $0[id ?? 0] }) else { return .status(404) }
  ///   return .json(todo)
  /// }
  /// ```
  @discardableResult
  public func reply(
    with compute: @escaping @Sendable (RecordedRequest) async throws -> StubResponse
  ) -> StubRule {
    reply(.computed(compute))
  }

  /// Registers the rule answering with `responses` in turn, one per match, then used up.
  ///
  /// Follow with ``StubRule/always()`` to repeat the last response instead.
  @discardableResult
  public func replies(_ responses: [StubResponse]) -> StubRule {
    register(responses, limit: responses.count)
  }

  /// Registers the rule throwing `error`, as a transport does on a timeout or lost connection.
  @discardableResult
  public func fail(with error: any Error) -> StubRule {
    reply(.failure(error))
  }

  /// Registers the rule never answering: the call waits until its task is cancelled, then
  /// throws `CancellationError`.
  @discardableResult
  public func hang() -> StubRule {
    reply(.hang)
  }

  /// Why the rule cannot work, reported once it is registered.
  var problem: String?

  private func invalid(_ reason: String) -> StubRuleBuilder {
    var copy = self
    copy.problem = reason
    return copy
  }

  private func register(_ responses: [StubResponse], limit: Int?) -> StubRule {
    let id = client.store.add(matcher, responses: responses, limit: limit)
    if let problem {
      client.store.update(id) { _ in problem }
    }
    return StubRule(store: client.store, id: id)
  }
}
