/// ``StubClient/verify()`` found rules that were not used as expected, unmatched requests or
/// invalid rules.
///
/// It depends on no test framework: throw it from a Swift Testing test or an XCTest, and its
/// description says what went wrong.
public struct StubVerificationFailure: Error, Sendable, CustomStringConvertible {
  /// One sentence per problem.
  public let problems: [String]
  /// Every request the stub received, for context.
  public let requests: [RecordedRequest]

  /// Creates the error.
  public init(problems: [String], requests: [RecordedRequest]) {
    self.problems = problems
    self.requests = requests
  }

  /// The problems, then the requests received.
  public var description: String {
    var lines = ["Stub verification failed:"]
    lines += problems.map { "  - \($0)" }
    lines.append(requests.isEmpty ? "Requests received: none" : "Requests received:")
    lines += requests.map { "  \($0)" }
    return lines.joined(separator: "\n")
  }
}
