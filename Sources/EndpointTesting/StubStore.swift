import EndpointPrimitives
import Foundation
import Synchronization

/// The state one ``StubClient`` and its copies share: rules, their use counts and the log.
final class StubStore: Sendable {
  struct Rule: Sendable {
    let id: Int
    var matcher: RequestMatcher
    var responses: [StubResponse]
    /// How many times the rule answers; `nil` for always.
    var limit: Int?
    var uses = 0
    var isOptional = false
    var delay: Duration?

    var label: String { "#\(id) \(matcher.summary)" }

    var isUsedUp: Bool {
      guard let limit else { return false }
      return uses >= limit
    }

    var usage: String {
      switch limit {
      case nil: return "answered \(uses) times (always)"
      case let limit?: return "answered \(uses) of \(limit) times"
      }
    }
  }

  struct State: Sendable {
    var rules: [Rule] = []
    var records: [RecordedRequest] = []
    /// Invalid rules (``TestDoubleFailure/Kind/invalidStub``), each naming its rule.
    var problems: [TestDoubleFailure] = []
    /// The failures of requests no rule answered.
    var unmatched: [TestDoubleFailure] = []
  }

  let state = Mutex(State())

  func add(_ matcher: RequestMatcher, responses: [StubResponse], limit: Int?) -> Int {
    state.withVisibleLock { state in
      let id = state.rules.count + 1
      state.rules.append(Rule(id: id, matcher: matcher, responses: responses, limit: limit))
      for response in responses {
        if case .invalid(let reason) = response.action {
          state.problems.append(.invalidStub(reason, rule: state.rules[id - 1].label))
        }
      }
      if responses.isEmpty {
        state.problems.append(
          .invalidStub("it has no responses to give", rule: state.rules[id - 1].label))
      }
      return id
    }
  }

  /// Changes rule `id`; a reason `change` returns makes the rule invalid.
  func update(_ id: Int, _ change: (inout Rule) -> String?) {
    state.withVisibleLock { state in
      guard state.rules.indices.contains(id - 1) else { return }
      if let reason = change(&state.rules[id - 1]) {
        state.problems.append(.invalidStub(reason, rule: state.rules[id - 1].label))
      }
    }
  }

  func rule(_ id: Int) -> Rule? {
    state.withVisibleLock { $0.rules.indices.contains(id - 1) ? $0.rules[id - 1] : nil }
  }
}
