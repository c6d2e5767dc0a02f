import Foundation

/// A request a ``StubClient`` received, with the rule that answered it and how it ended.
///
/// ```swift
/// #expect(stub.requests.map(\.request.method) == [.get, .post])
/// #expect(stub.requests[1].body == Data(#"{"title":"Milk"}"#.utf8))
/// ```
public struct RecordedRequest: Sendable, CustomStringConvertible {
  /// How a recorded request ended.
  public enum Outcome: Sendable, Hashable {
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

  /// The request; its body, if any, is held in memory.
  public let request: HTTPRequest
  /// The complete request body (empty when there was none).
  public let body: Data
  /// The number of the rule that answered (as in `#1`), or `nil` when none matched.
  public let rule: Int?
  /// How the request ended.
  public internal(set) var outcome: Outcome

  init(request: HTTPRequest, body: Data, rule: Int?, outcome: Outcome) {
    self.request = request
    self.body = body
    self.rule = rule
    self.outcome = outcome
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
  /// hidden, the rule and the outcome, an error's text redacted as ``description`` redacts it.
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
        "rule": rule as Any,
        "outcome": shownOutcome,
      ],
      displayStyle: .struct)
  }
}
