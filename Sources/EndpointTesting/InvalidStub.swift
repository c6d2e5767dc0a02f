/// A stub rule was set up with something that cannot work, such as `times(0)` or a JSON body
/// that is not JSON. Every call to the stub client and ``StubClient/verify()`` throw it, so the
/// mistake cannot pass unnoticed.
public struct InvalidStub: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong with the rule.
  public let reason: String
  /// The rule, as `#n METHOD pattern`, when the problem belongs to one.
  public let rule: String?

  /// Creates the error.
  public init(reason: String, rule: String? = nil) {
    self.reason = reason
    self.rule = rule
  }

  /// A sentence naming the rule and the problem.
  public var description: String {
    if let rule { return "Invalid stub rule \(rule): \(reason)" }
    return "Invalid stub: \(reason)"
  }
}
