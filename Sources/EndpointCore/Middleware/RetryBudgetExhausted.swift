import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// ``RetryMiddleware`` stopped retrying a failed request because its timeout, the budget of the
/// whole call, could not cover another attempt and the wait before it.
///
/// ```swift
/// catch let error as RetryBudgetExhausted {
///   print(error.lastError)   // what the last attempt threw
/// }
/// ```
public struct RetryBudgetExhausted: Error, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The request's URL.
  public let url: URL
  /// The attempts made.
  public let attempts: Int
  /// The request's timeout.
  public let budget: Duration
  /// What the last attempt threw.
  public let lastError: any Error

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, attempts: Int, budget: Duration, lastError: any Error) {
    self.method = method
    self.url = url
    self.attempts = attempts
    self.budget = budget
    self.lastError = lastError
  }

  /// A sentence naming the request, the attempts, the budget and the last error.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): gave up after \(attempts) "
      + "attempt\(attempts == 1 ? "" : "s"): the timeout of \(budget.shortDescription) leaves no "
      + "time for another; the last one failed with: "
      + HTTPToken.cut(Redaction.standard.apply(toText: String(describing: lastError)), limit: 500)
  }
}

extension RetryBudgetExhausted: CustomReflectable {
  /// The stored properties with the URL and the last error shown as ``description`` shows them, for
  /// `dump(_:)`, LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "attempts": attempts,
        "budget": budget,
        "lastError": Redaction.standard.apply(toText: String(describing: lastError)),
      ])
  }
}
