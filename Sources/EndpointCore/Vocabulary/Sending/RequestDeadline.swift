import EndpointPrimitives

/// Runs `operation` with a deadline that every request sent inside it respects: a whole walk of
/// pages, a retried call, or a command's time budget, across as many requests as it makes.
///
/// ```swift
/// let titles = try await withRequestDeadline(after: .seconds(10)) {
///   var titles: [String] = []
///   let repos = Repo.all(of: "swiftlang")
///   for try await repo in client.items(of: repos, paginator: .linkHeader()) {
///     titles.append(repo.name)
///   }
///   return titles
/// }
/// ```
///
/// Each request the curl and URLSession clients send inside the scope (directly, through
/// `DefaultHTTPClient` or behind middleware) gets as its deadline the
/// earlier of its own (``HTTPRequest/timeout``, else the client's) and what is left of the
/// scope. A request that would run past the scope's end fails then with a
/// ``TransportFailure`` of kind ``TransportFailure/Kind/deadlineExceeded``, and one started
/// after the end fails at once with the same error. Scopes nest: the earliest deadline wins.
///
/// The deadline limits requests, not the code between them: the operation's own work is not
/// interrupted, and an operation that makes no request after the deadline returns normally. The
/// test doubles of EndpointTesting answer without a clock of the transports and ignore it.
///
/// - Parameters:
///   - limit: how long from now the requests inside may run; zero or less makes each of them
///     fail at once.
///   - isolation: the actor `operation` runs on; the caller's, by default.
///   - operation: the work that sends the requests.
/// - Returns: what `operation` returns.
/// - Throws: what `operation` throws, including the requests' deadline failures.
public func withRequestDeadline<Result>(
  after limit: Duration,
  isolation: isolated (any Actor)? = #isolation,
  _ operation: () async throws -> Result
) async rethrows -> Result {
  let end = ContinuousClock.now.advanced(by: limit)
  let earliest = RequestDeadline.end.map { min($0, end) } ?? end
  return try await RequestDeadline.$end.withValue(
    earliest, operation: operation, isolation: isolation)
}

/// The end of the innermost ``withRequestDeadline(after:isolation:_:)`` scope of the current task.
enum RequestDeadline {
  @TaskLocal static var end: ContinuousClock.Instant?
}

/// The deadline a transport gives a request whose own (or its client's) deadline is `limit`:
/// `limit`, or what is left of the current task's request-deadline scope if that is earlier;
/// at least a nanosecond, so a request started after the scope's end fails at once with the
/// transport's deadline error.
package func deadlineWithinScope(_ limit: Duration?) -> Duration? {
  guard let end = RequestDeadline.end else { return limit }
  let left = max(ContinuousClock.now.duration(to: end), .nanoseconds(1))
  guard let limit else { return left }
  return min(limit, left)
}
