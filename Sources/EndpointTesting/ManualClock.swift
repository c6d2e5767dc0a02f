import EndpointPrimitives
import Synchronization

/// A clock that moves only when the test says so: sleepers wait until ``advance(by:)`` passes
/// their deadline, or, made with `sleepsImmediately: true`, return at once and move the time
/// forward by the time slept.
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
///
/// Or let delayed responses keep their order and their recorded time without making the test
/// wait:
///
/// ```swift
/// let clock = ManualClock(sleepsImmediately: true)
/// let stub = StubClient(clock: clock)
/// stub.on(.get, "/slow").reply(.status(200).delayed(by: .seconds(30)))
/// _ = try await stub.send(request)     // returns at once
/// #expect(clock.elapsed == .seconds(30))
/// ```
public struct ManualClock: Clock, Sendable {
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
  /// The instant the clock was created; its time is measured from there.
  private let start = ContinuousClock.now
  /// Whether a sleep moves the time to its deadline and returns at once.
  private let sleepsImmediately: Bool

  /// Creates a clock at time zero.
  ///
  /// - Parameter sleepsImmediately: whether a sleep returns at once, moving the time forward to
  ///   its deadline, instead of waiting for ``advance(by:)``; `false` by default.
  public init(sleepsImmediately: Bool = false) {
    self.sleepsImmediately = sleepsImmediately
  }

  /// The current instant: the clock's start plus ``elapsed``.
  public var now: ContinuousClock.Instant { start.advanced(by: elapsed) }

  /// How far the clock has moved since it was created, by ``advance(by:)`` and by sleeps that
  /// return at once.
  public var elapsed: Duration { storage.state.withVisibleLock { $0.now } }

  /// The smallest step: one nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { storage.state.withVisibleLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline`, or, when the clock sleeps
  /// immediately, moves the time to `deadline` (if later) and returns at once.
  ///
  /// - Throws: `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil)
    async throws
  {
    let deadline = start.duration(to: deadline)
    if sleepsImmediately {
      try Task.checkCancellation()
      move { $0 = max($0, deadline) }
      await Task.yield()
      return
    }
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
          if deadline <= state.now { return (.success(()), []) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
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
    move { $0 += duration }
  }

  /// Changes the time with `change`, waking every sleeper whose deadline has come.
  private func move(_ change: (inout Duration) -> Void) {
    let due = storage.state.withVisibleLock { state -> [Sleeper] in
      change(&state.now)
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
