import EndpointPrimitives
import Synchronization

/// The background revalidations of one ``CacheMiddleware``: at most one per key at a time,
/// however many callers find the same stale entry.
final class CacheRevalidations: Sendable {
  private struct State {
    var running: [String: Task<Void, Never>] = [:]
  }

  private let state = Mutex(State())

  /// Starts `work` for `key` unless one is already running; returns whether it started.
  @discardableResult
  func start(_ key: String, _ work: @escaping @Sendable () async -> Void) -> Bool {
    state.withVisibleLock { state in
      guard state.running[key] == nil else { return false }
      state.running[key] = Task {
        await work()
        self.finish(key)
      }
      return true
    }
  }

  private func finish(_ key: String) {
    _ = state.withVisibleLock { $0.running.removeValue(forKey: key) }
  }

  /// Waits until every revalidation running now has finished.
  func waitForAll() async {
    while true {
      let tasks = state.withVisibleLock { Array($0.running.values) }
      if tasks.isEmpty { return }
      for task in tasks { await task.value }
    }
  }
}
