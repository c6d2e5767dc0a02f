/// A stub rule that came close to a request no rule answers, with the result of each of its
/// checks; ``TestDoubleFailure/nearestRules`` shows it as text.
struct NearRule: Sendable, Hashable, CustomStringConvertible {
  /// The rule, as `#n METHOD pattern …`.
  let rule: String
  /// Every check of the rule, passed or failed, in order.
  let checks: [MatchCheck]

  /// The checks that failed.
  var mismatches: [MatchCheck] { checks.filter { !$0.passed } }

  /// The rule on one line and its checks on the next.
  var description: String {
    "\(rule)\n     " + checks.map(\.description).joined(separator: " ")
  }
}
