import Dispatch
import EndpointPrimitives
import Synchronization

/// One timer for many transfers: it is armed for the earliest instant any of them must be
/// checked at, and only re-armed when a transfer brings an earlier one.
///
/// A timer per transfer costs a timer source made, armed and cancelled per request, and each of
/// those wakes libdispatch's timer thread. Here a request usually costs a dictionary insert
/// and removal: with the same limits, each new request's first check comes after the one the
/// timer is already armed for. Bytes arriving never touch the timer, they only move the
/// transfer's last-activity mark; when the timer fires, the due transfers check their limits
/// (and stop, or say when to check again) and the timer is armed for the next earliest check.
/// A transfer that ended is removed at once; one the timer finds ended is dropped then.
final class TimeoutScheduler: Sendable {
  /// The scheduler of requests that have no client of their own (`URLSession` as a client).
  static let shared = TimeoutScheduler()

  private static let queue = DispatchQueue(label: "Endpoint.TimeoutScheduler", qos: .utility)

  private struct Entry {
    let target: any TimeoutTarget
    var due: ContinuousClock.Instant
  }

  private struct State {
    var entries: [ObjectIdentifier: Entry] = [:]
    /// The instant the timer fires at; `nil` while it is not armed.
    var armed: ContinuousClock.Instant?
    let source: any DispatchSourceTimer

    mutating func arm(at instant: ContinuousClock.Instant) {
      armed = instant
      let delay = max(.zero, instant - ContinuousClock.now)
      source.schedule(
        deadline: .now() + .nanoseconds(Int(clamping: delay.nanoseconds)),
        leeway: .milliseconds(1)
      )
    }

    mutating func armIfEarlier(_ instant: ContinuousClock.Instant) {
      if let armed, armed <= instant { return }
      arm(at: instant)
    }
  }

  private let state: Mutex<State>

  init() {
    state = Mutex(State(source: DispatchSource.makeTimerSource(queue: TimeoutScheduler.queue)))
    state.withVisibleLock { state in
      state.source.setEventHandler { [weak self] in self?.fire() }
      state.source.activate()
    }
  }

  deinit {
    state.withVisibleLock { $0.source.cancel() }
  }

  /// How many transfers are watched (for tests of clean-up).
  var count: Int { state.withVisibleLock { $0.entries.count } }

  /// Whether the timer is armed for a check. With no transfer watched and the timer not armed,
  /// no transfer can be checked again (for tests, which need not wait to see it).
  var isArmed: Bool { state.withVisibleLock { $0.armed != nil } }

  /// Watches `target`, first checking it at `due`.
  func add(_ target: any TimeoutTarget, checkAt due: ContinuousClock.Instant) {
    state.withVisibleLock { state in
      state.entries[ObjectIdentifier(target)] = Entry(target: target, due: due)
      state.armIfEarlier(due)
    }
  }

  /// Stops watching `target`.
  func remove(_ target: any TimeoutTarget) {
    // Released after the lock: the last reference may go with it.
    let removed = state.withVisibleLock { $0.entries.removeValue(forKey: ObjectIdentifier(target)) }
    _ = removed
  }

  private func fire() {
    let now = ContinuousClock.now
    let due = state.withVisibleLock { state -> [any TimeoutTarget] in
      state.armed = nil
      return state.entries.values.compactMap { $0.due <= now ? $0.target : nil }
    }
    // Outside the lock: a target that stops removes itself.
    let checked = due.map { ($0, $0.checkTimeouts(at: now)) }
    let dropped = state.withVisibleLock { state -> [Entry] in
      var dropped: [Entry] = []
      for (target, next) in checked {
        let key = ObjectIdentifier(target)
        guard let entry = state.entries[key], entry.target === target else { continue }
        if let next {
          state.entries[key]?.due = next
        } else if let entry = state.entries.removeValue(forKey: key) {
          dropped.append(entry)
        }
      }
      if let earliest = state.entries.values.lazy.map(\.due).min() {
        state.armIfEarlier(earliest)
      }
      return dropped
    }
    _ = dropped
  }
}
