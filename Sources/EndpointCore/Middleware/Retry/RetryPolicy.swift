/// When ``RetryMiddleware`` sends a request again, and how long it waits first.
///
/// The defaults retry only what is safe to repeat: idempotent methods (`GET`, `HEAD`, `PUT`,
/// `DELETE`, `OPTIONS`), after a transient transport failure (see ``TransportFailure``) or a
/// `408`, `429`, `500`, `502`, `503` or `504`, at most 3 attempts in all. The wait before retry
/// *n* is drawn uniformly from zero to `min(maxDelay, baseDelay × 2ⁿ⁻¹)` ("full jitter"), unless
/// the response says `Retry-After`, which is honoured when it is at most ``maxDelay``; a longer
/// `Retry-After` returns the response to the caller instead of retrying before the server is
/// ready.
///
/// ```swift
/// var policy = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(1))
/// // This API deduplicates POSTs with an Idempotency-Key.
/// policy.methods.insert(.post)
/// policy.retriesError = { error in
///   RetryPolicy.isTransientFailure(error) || error is MyGatewayError
/// }
/// let client = transport.with(RetryMiddleware(policy: policy))
/// ```
public struct RetryPolicy: Sendable {
  /// The most times a request is sent, the first included; values below 1 mean 1.
  public var maxAttempts: Int
  /// The ceiling of the first wait; it doubles for each later retry.
  public var baseDelay: Duration
  /// The longest wait, for backoff and `Retry-After` alike; a response that asks for a longer
  /// `Retry-After` is returned, not retried.
  public var maxDelay: Duration
  /// The methods that may be retried.
  public var methods: Set<HTTPMethod>
  /// The response statuses that are retried.
  public var statuses: Set<Int>
  /// Whether an error thrown by the rest of the chain is worth another attempt.
  ///
  /// Cancellation is never retried, whatever this says.
  public var retriesError: @Sendable (any Error) -> Bool
  /// How long one attempt may take, or `nil` for no limit of its own. The request's timeout
  /// stays the budget of the whole call: an attempt gets the smaller of this and what is left.
  public var attemptTimeout: Duration?

  /// The methods RFC 9110 calls idempotent, less `TRACE`: `GET`, `HEAD`, `PUT`, `DELETE`,
  /// `OPTIONS`.
  public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options]

  /// The statuses that usually mean "try again later": 408, 429, 500, 502, 503 and 504.
  public static let transientStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - maxAttempts: the most times a request is sent, the first included.
  ///   - baseDelay: the ceiling of the first wait.
  ///   - maxDelay: the longest wait, `Retry-After` included.
  ///   - methods: the methods that may be retried.
  ///   - statuses: the response statuses that are retried.
  ///   - retriesError: whether an error is worth another attempt.
  public init(
    maxAttempts: Int = 3,
    baseDelay: Duration = .milliseconds(500),
    maxDelay: Duration = .seconds(30),
    methods: Set<HTTPMethod> = RetryPolicy.idempotentMethods,
    statuses: Set<Int> = RetryPolicy.transientStatuses,
    retriesError: @escaping @Sendable (any Error) -> Bool = RetryPolicy.isTransientFailure
  ) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.methods = methods
    self.statuses = statuses
    self.retriesError = retriesError
  }

  /// The default error rule: `true` for a ``TransportFailure`` whose
  /// ``TransportFailure/isTransient`` is `true`, `false` for anything else.
  @Sendable public static func isTransientFailure(_ error: any Error) -> Bool {
    (error as? TransportFailure)?.isTransient ?? false
  }

  /// The wait before retry number `retry` (1 for the first retry), with full jitter.
  ///
  /// - Parameters:
  ///   - retry: which retry this is, from 1.
  ///   - random: a number in `0..<1` (clamped) that picks the wait below the ceiling.
  /// - Returns: `min(maxDelay, baseDelay × 2^(retry − 1)) × random`, never negative.
  public func backoff(beforeRetry retry: Int, random: Double) -> Duration {
    let cap = max(maxDelay, .zero)
    var ceiling = min(max(baseDelay, .zero), cap)
    var doublings = max(retry, 1) - 1
    // Doubling stops at the cap, so a large retry number cannot overflow.
    while doublings > 0, ceiling < cap {
      ceiling = min(ceiling * 2, cap)
      doublings -= 1
    }
    return ceiling * min(max(random, 0), 1)
  }
}
