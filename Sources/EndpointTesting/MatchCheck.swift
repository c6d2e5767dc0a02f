/// One part of a stub rule checked against a request, such as its method or its query.
///
/// A ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/noMatchingStub`` shows them for the
/// nearest rules: `✓ method ✓ path ✗ query: expected currency=USD, got currency=EUR`.
struct MatchCheck: Sendable, Hashable, CustomStringConvertible {
  /// The part checked: `method`, `origin`, `path`, `query`, `header X-Name`, `body`, `times` or a
  /// custom predicate's description.
  let part: String
  /// Whether the request satisfied it.
  let passed: Bool
  /// What the rule expects (empty when it passed).
  let expected: String
  /// What the request had (empty when it passed).
  let actual: String

  /// Creates a check result.
  init(part: String, passed: Bool, expected: String = "", actual: String = "") {
    self.part = part
    self.passed = passed
    self.expected = expected
    self.actual = actual
  }

  static func pass(_ part: String) -> MatchCheck {
    MatchCheck(part: part, passed: true)
  }

  static func fail(_ part: String, expected: String, actual: String) -> MatchCheck {
    MatchCheck(part: part, passed: false, expected: expected, actual: actual)
  }

  /// `✓ part`, or `✗ part: expected …, got …`.
  var description: String {
    if passed { return "✓ \(part)" }
    if expected.isEmpty { return "✗ \(part): \(actual)" }
    return "✗ \(part): expected \(expected), got \(actual)"
  }
}
