/// Runs `operation` in a task of its own, cancels that task after `delay`, and names how it
/// ended: `"result"`, `"cancelled"` (a `CancellationError`), or the description of any other
/// error. For tests that race cancellations against completions.
public func outcomeOfCancelling(
  after delay: Duration,
  _ operation: @escaping @Sendable () async throws -> Int
) async -> String {
  let task = Task { try await operation() }
  try? await Task.sleep(for: delay)
  task.cancel()
  do {
    _ = try await task.value
    return "result"
  } catch is CancellationError {
    return "cancelled"
  } catch {
    return "\(error)"
  }
}
