import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Sends a request again after a transient failure, waiting with exponential backoff and full
/// jitter, as its ``RetryPolicy`` says.
///
/// ```swift
/// // 3 attempts, idempotent methods only:
/// let client = transport.with(RetryMiddleware())
/// ```
///
/// What it never does:
/// - retry a cancelled request (`CancellationError`, or the task is cancelled);
/// - retry a request whose body is streamed: it cannot be read twice;
/// - retry because of a decoding failure: parsing happens after ``HTTPClient/send(_:)`` returns,
///   outside the middleware chain, and so do errors raised while the caller reads the body.
///
/// Before a retry the failed response's body is read and dropped (up to 64 KiB) so the
/// transport can reuse the connection. After the last attempt the response is returned as is,
/// body included, or the last error is thrown. A request's ``HTTPRequest/timeout`` applies to
/// each attempt.
///
/// Tests inject the waiting, the random source and the current time, so they never sleep:
///
/// ```swift
/// let retry = RetryMiddleware(
///   policy: RetryPolicy(baseDelay: .seconds(1)),
///   sleep: { delay in await recorder.record(delay) },
///   random: { 0.5 }
/// )
/// ```
public struct RetryMiddleware: Middleware {
  /// When to retry and how long to wait.
  public let policy: RetryPolicy
  private let sleep: @Sendable (Duration) async throws -> Void
  private let random: @Sendable () -> Double
  private let now: @Sendable () -> Date

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - policy: when to retry and how long to wait.
  ///   - sleep: waits for a duration; `Task.sleep` by default. It should throw
  ///     `CancellationError` when the task is cancelled.
  ///   - random: a number in `0..<1` for the jitter.
  ///   - now: the current time, to turn a `Retry-After` date into a wait.
  public init(
    policy: RetryPolicy = RetryPolicy(),
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.policy = policy
    self.sleep = sleep
    self.random = random
    self.now = now
  }

  /// Creates the middleware waiting on `clock`.
  ///
  /// - Parameters:
  ///   - policy: when to retry and how long to wait.
  ///   - clock: the clock to sleep on.
  ///   - random: a number in `0..<1` for the jitter.
  ///   - now: the current time, to turn a `Retry-After` date into a wait.
  public init<C: Clock<Duration>>(
    policy: RetryPolicy = RetryPolicy(),
    clock: C,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.init(
      policy: policy,
      sleep: { delay in try await clock.sleep(for: delay) },
      random: random,
      now: now
    )
  }

  /// Sends the request, and again after each retryable failure until the policy's attempts run
  /// out.
  ///
  /// - Throws: `CancellationError` when cancelled, or the last error of `next`.
  public func intercept(
    _ request: HTTPRequest,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    let canRetry =
      policy.methods.contains(request.method) && (request.body?.isReplayable ?? true)
    let maxAttempts = max(policy.maxAttempts, 1)
    // The request's timeout covers the whole exchange, every attempt and wait included: each
    // attempt gets what is left, and no retry starts that could not finish in time.
    let total = request.timeout
    let started = now()
    var request = request
    func remaining(after delay: Duration) -> Duration? {
      guard let total else { return nil }
      return total - .seconds(now().timeIntervalSince(started)) - delay
    }
    func attemptLimit(_ left: Duration?) -> Duration? {
      switch (left, policy.attemptTimeout) {
      case (let left?, let own?): min(left, own)
      case (let left, let own): left ?? own
      }
    }
    request.timeout = attemptLimit(total)
    var attempt = 1
    while true {
      let response: HTTPResponse
      let body: HTTPBody
      do {
        (response, body) = try await next(request)
      } catch {
        guard canRetry, attempt < maxAttempts, !Self.isCancellation(error),
          policy.retriesError(error)
        else { throw error }
        let delay = policy.backoff(beforeRetry: attempt, random: random())
        let left = remaining(after: delay)
        if let left, left <= .zero, let total {
          throw TransportFailure.retryBudgetExhausted(
            method: request.method, url: request.url, attempts: attempt, budget: total,
            lastError: error)
        }
        request.timeout = attemptLimit(left)
        try await wait(delay)
        attempt += 1
        continue
      }
      guard canRetry, attempt < maxAttempts, policy.statuses.contains(response.status),
        !Task.isCancelled
      else { return (response, body) }
      let delay: Duration
      switch retryAfter(response) {
      case .tooLong: return (response, body)
      case .wait(let wait): delay = wait
      case .none: delay = policy.backoff(beforeRetry: attempt, random: random())
      }
      let left = remaining(after: delay)
      if let left, left <= .zero { return (response, body) }
      request.timeout = attemptLimit(left)
      await body.discard()
      try await wait(delay)
      attempt += 1
    }
  }

  private func wait(_ delay: Duration) async throws {
    try Task.checkCancellation()
    try await sleep(delay)
    // A sleep that ignores cancellation must not lead to another attempt.
    try Task.checkCancellation()
  }

  private enum ServerDelay {
    case wait(Duration)
    /// Longer than the policy's cap: retrying sooner than the server asked would only be
    /// refused again, so the response goes back to the caller.
    case tooLong
  }

  private func retryAfter(_ response: HTTPResponse) -> ServerDelay? {
    guard let value = response.headerFields["Retry-After"],
      let delay = RetryAfter.delay(value, now: now())
    else { return nil }
    return delay > max(policy.maxDelay, .zero) ? .tooLong : .wait(delay)
  }

  private static func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || Task.isCancelled
  }
}

extension TransportFailure {
  /// The retries stopped because `budget`, the request's timeout, leaves no time for another
  /// attempt; `lastError` is what the last one threw.
  static func retryBudgetExhausted(
    method: HTTPMethod, url: URL, attempts: Int, budget: Duration, lastError: any Error
  ) -> Self {
    let lastText = Redaction.standard.apply(toText: String(describing: lastError))
    return Self(
      .retryBudgetExhausted, method: method, url: url,
      redactedMessage:
        "gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"): the timeout of "
        + "\(budget.shortDescription) leaves no time for another; the last one failed with: "
        + HTTPToken.cut(lastText, limit: 500),
      isTransient: false, underlyingError: lastError, timeout: budget)
  }
}
