/// Runs `operation` `count` times, at most `concurrency` at once, each in a task of its own that
/// is cancelled after `delay(index)`; returns how each ended: `"result"`, `"cancelled"` (a
/// `CancellationError`), or the description of any other error. For tests that race
/// cancellations against completions.
public func outcomesOfCancelling(
  _ count: Int,
  atMost concurrency: Int,
  after delay: @escaping @Sendable (Int) -> Duration,
  _ operation: @escaping @Sendable (Int) async throws -> Int
) async -> [String] {
  await withTaskGroup(of: String.self) { group in
    var outcomes: [String] = []
    outcomes.reserveCapacity(count)
    for index in 0..<count {
      if index >= concurrency, let outcome = await group.next() { outcomes.append(outcome) }
      group.addTask {
        await outcomeOfCancelling(after: delay(index)) { try await operation(index) }
      }
    }
    for await outcome in group { outcomes.append(outcome) }
    return outcomes
  }
}

private func outcomeOfCancelling(
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
