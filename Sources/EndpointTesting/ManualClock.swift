import Synchronization

/// A clock that moves only when the test says so: sleepers wait until ``advance(by:)`` passes
/// their deadline.
///
/// Use it to test what happens while a response is delayed, such as a timeout or a loading
/// state:
///
/// ```swift
/// let clock = ManualClock()
/// let stub = StubClient(clock: clock)
/// stub.on(.get, "/slow").reply(.status(200).delayed(by: .seconds(5)))
/// let call = Task { try await stub.send(request) }
/// await clock.waitForSleepers(1)      // the stub is now waiting
/// clock.advance(by: .seconds(5))      // … and answers
/// let (response, _) = try await call.value
/// ```
public struct ManualClock: Clock, Sendable {
  /// A point in this clock's time: the time elapsed since it was created.
  public typealias Instant = ImmediateClock.Instant

  private struct Sleeper {
    let id: Int
    let deadline: Duration
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Duration.zero
    var nextID = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeStart: Set<Int> = []
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private final class Storage: Sendable {
    let state = Mutex(State())
  }

  private let storage = Storage()

  /// Creates a clock at time zero.
  public init() {}

  /// The current instant.
  public var now: Instant { Instant(offset: storage.state.withVisibleLock { $0.now }) }

  /// The smallest step: one nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { storage.state.withVisibleLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline`.
  ///
  /// - Throws: `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = storage.state.withVisibleLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (resume, waiters) = storage.state.withVisibleLock {
          state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
          if state.cancelledBeforeStart.remove(id) != nil {
            return (.failure(CancellationError()), [])
          }
          if deadline.offset <= state.now { return (.success(()), []) }
          state.sleepers.append(
            Sleeper(id: id, deadline: deadline.offset, continuation: continuation))
          return (nil, Self.readyWaiters(&state))
        }
        if let resume { continuation.resume(with: resume) }
        for waiter in waiters { waiter.resume() }
      }
    } onCancel: {
      let sleeper = storage.state.withVisibleLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledBeforeStart.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the time forward by `duration`, waking every sleeper whose deadline has come.
  public func advance(by duration: Duration) {
    let due = storage.state.withVisibleLock { state -> [Sleeper] in
      state.now += duration
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Returns once at least `count` tasks are sleeping on this clock.
  public func waitForSleepers(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = storage.state.withVisibleLock { state -> Bool in
        if state.sleepers.count >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private static func readyWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    let count = state.sleepers.count
    let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
    state.waiters.removeAll { $0.count <= count }
    return ready
  }
}
