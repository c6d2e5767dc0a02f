import EndpointPrimitives
import Foundation
import Synchronization

/// An ``EndpointCore/HTTPClient`` that answers from rules set up in a test, and records every request.
///
/// Create one per test; it has no global state, so tests run in parallel safely. Copies share
/// their rules and log. Responses go through the endpoint's real parser, so `call(_:)` tests the
/// parser too.
///
/// ```swift
/// let stub = StubClient(baseURL: URL(string: "https://api.example.com/v1")!)
/// stub.on(.get, "/users/{id}").reply(json: User(id: 42, name: "Ada"))
/// stub.on(.get, "/rates").query(["currency": "USD"])
///   .reply(json: #"{"rate": 1.08}"#).once()
///
/// let user = try await stub.call(User.with(id: 42))
/// #expect(user.name == "Ada")
/// try stub.verify()   // every rule was used as expected
/// ```
///
/// Rules are tried in the order they were added; the first that matches and is not used up
/// answers. A request that matches no rule throws a ``TestDoubleFailure`` of kind
/// ``TestDoubleFailure/Kind/noMatchingStub``, which shows for the nearest rules which part did
/// not match and suggests a rule that would.
public struct StubClient: HTTPClient {
  let store = StubStore()
  /// The base URL that relative rule paths are resolved against, if any.
  public let baseURL: URL?
  /// The clock that delays wait on.
  public let clock: any Clock<Duration>
  /// The largest request body read for matching.
  public let bodyLimit: Int

  /// Creates a stub client with no rules.
  ///
  /// - Parameters:
  ///   - baseURL: when set, a rule's relative path (`"/users/{id}"`) matches only under this
  ///     base's origin and path.
  ///   - clock: the clock that ``StubResponse/delayed(by:)`` waits on; pass an
  ///     ``ManualClock`` to keep tests instant.
  ///   - bodyLimit: the largest request body read, in bytes.
  public init(
    baseURL: URL? = nil,
    clock: any Clock<Duration> = ContinuousClock(),
    bodyLimit: Int = 32 * 1024 * 1024
  ) {
    self.baseURL = baseURL
    self.clock = clock
    self.bodyLimit = bodyLimit
  }

  /// Starts a rule for requests with `method` whose URL matches `pattern`.
  ///
  /// ```swift
  /// stub.on(.delete, "/todos/{id}").reply(status: 204)
  /// ```
  public func on(_ method: HTTPMethod, _ pattern: PathPattern) -> StubRuleBuilder {
    StubRuleBuilder(
      client: self,
      matcher: RequestMatcher(method: method, pattern: pattern.resolved(against: baseURL))
    )
  }

  /// Starts a rule for requests with any method whose URL matches `pattern`.
  public func on(_ pattern: PathPattern) -> StubRuleBuilder {
    StubRuleBuilder(
      client: self,
      matcher: RequestMatcher(method: nil, pattern: pattern.resolved(against: baseURL))
    )
  }

  /// Starts a rule for requests with `method` to exactly `url`: same origin, path and query
  /// items (in any order).
  public func on(_ method: HTTPMethod, url: URL) -> StubRuleBuilder {
    var matcher = RequestMatcher(method: method, pattern: PathPattern.exact(url.absoluteString))
    matcher.queryIsExact = true
    return StubRuleBuilder(client: self, matcher: matcher)
  }

  /// Every request received so far, in the order the rules saw them.
  public var requests: [RecordedRequest] {
    store.state.withVisibleLock { $0.records }
  }

  /// Every rule, in the order they were added.
  public var rules: [StubRule] {
    let count = store.state.withVisibleLock { $0.rules.count }
    return (0..<count).map { StubRule(store: store, id: $0 + 1) }
  }

  /// Checks that every rule answered as often as it expects, that no request went unmatched and
  /// that every rule is valid.
  ///
  /// A rule set with ``StubRule/once()`` or ``StubRule/times(_:)`` expects exactly that many
  /// calls; one that answers always expects at least one, unless marked
  /// ``StubRule/optional()``. Works with any test framework:
  ///
  /// ```swift
  /// try stub.verify()            // Swift Testing: a thrown error fails the test
  /// XCTAssertNoThrow(try stub.verify())
  /// ```
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/verificationFailed``
  ///   listing every problem.
  public func verify() throws(TestDoubleFailure) {
    let state = store.state.withVisibleLock { $0 }
    var problems = state.problems.map(\.description)
    for rule in state.rules where !rule.isOptional {
      switch rule.limit {
      case let limit? where rule.uses < limit:
        problems.append("rule \(rule.label) was expected \(limit) times, answered \(rule.uses)")
      case nil where rule.uses == 0:
        problems.append("rule \(rule.label) was never used")
      default:
        break
      }
    }
    for unmatched in state.unmatched {
      problems.append("no rule matched \(unmatched.requestLine)")
    }
    if !problems.isEmpty {
      throw .verificationFailed(problems: problems, requests: state.records)
    }
  }

  /// Answers `request` from the first matching rule that is not used up.
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/noMatchingStub`` when no
  ///   rule matches or ``TestDoubleFailure/Kind/invalidStub`` when a rule is invalid,
  ///   the rule's error, or `CancellationError` when the task is cancelled while the rule waits.
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    if let problem = store.state.withVisibleLock({ $0.problems.first }) { throw problem }
    let body = try await request.body?.collect(upTo: bodyLimit) ?? Data()
    let snapshot = store.state.withVisibleLock { $0.rules }
    let evaluations = snapshot.map { $0.matcher.evaluate(request, body: body) }

    // Claiming a use is atomic, so concurrent calls never exceed a rule's limit.
    let claim = store.state.withVisibleLock {
      state -> (rule: StubStore.Rule, use: Int, record: Int)? in
      for (index, evaluation) in evaluations.enumerated()
      where evaluation.checks.allSatisfy(\.passed) {
        guard !state.rules[index].isUsedUp else { continue }
        state.rules[index].uses += 1
        state.records.append(
          RecordedRequest(
            request: request,
            body: body,
            pathParameters: evaluations[index].parameters,
            rule: state.rules[index].id
          )
        )
        return (state.rules[index], state.rules[index].uses - 1, state.records.count - 1)
      }
      return nil
    }

    guard let claim else {
      let current = store.state.withVisibleLock { $0.rules }
      let error = TestDoubleFailure.noMatchingStub(
        request: request,
        body: body,
        rules: zip(current, evaluations).map { ($0, $1.checks) },
        baseURL: baseURL
      )
      store.state.withVisibleLock { state in
        state.records.append(
          RecordedRequest(request: request, body: body, rule: nil, outcome: .noMatch)
        )
        state.unmatched.append(error)
      }
      throw error
    }

    let response = claim.rule.responses[min(claim.use, claim.rule.responses.count - 1)]
    let request = store.state.withVisibleLock { $0.records[claim.record] }
    do {
      let (head, data, trailers) = try await answer(
        response, to: request, ruleDelay: claim.rule.delay, depth: 0)
      setOutcome(.response(status: head.status), at: claim.record)
      return (head, HTTPBody.inMemory(data, trailerFields: trailers))
    } catch is CancellationError {
      setOutcome(.cancelled, at: claim.record)
      throw CancellationError()
    } catch {
      setOutcome(.error(String(describing: error)), at: claim.record)
      throw error
    }
  }

  private func setOutcome(_ outcome: RecordedRequest.Outcome, at index: Int) {
    store.state.withVisibleLock { $0.records[index].outcome = outcome }
  }

  private func answer(
    _ response: StubResponse,
    to request: RecordedRequest,
    ruleDelay: Duration?,
    depth: Int
  ) async throws -> (HTTPResponse, Data, HTTPFields?) {
    if let delay = response.delay ?? ruleDelay {
      try await clock.sleep(for: delay)
    }
    try Task.checkCancellation()
    switch response.action {
    case .reply(let status, let headers, let body):
      let head = HTTPResponse(status: status, headerFields: headers, url: request.url)
      return (head, body, response.trailerFields)
    case .failure(let error):
      throw error
    case .hang:
      try await CancellationWaiter.wait()
    case .compute(let compute):
      guard depth < 8 else {
        throw TestDoubleFailure.invalidStub(
          "a computed response kept returning computed responses")
      }
      let next = try await compute(request)
      return try await answer(next, to: request, ruleDelay: nil, depth: depth + 1)
    case .invalid(let reason):
      throw TestDoubleFailure.invalidStub(reason)
    }
  }
}

/// Suspends until the current task is cancelled.
private final class CancellationWaiter: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Void, Never>?
    var cancelled = false
  }

  private let state = Mutex(State())

  static func wait() async throws -> Never {
    let waiter = CancellationWaiter()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = waiter.state.withVisibleLock { state in
          if state.cancelled { return true }
          state.continuation = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let continuation = waiter.state.withVisibleLock { state in
        state.cancelled = true
        defer { state.continuation = nil }
        return state.continuation
      }
      continuation?.resume()
    }
    throw CancellationError()
  }
}
