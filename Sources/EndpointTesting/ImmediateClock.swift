import Synchronization

/// A clock whose sleeps return at once, moving its time forward by the time slept.
///
/// Give it to a ``StubClient`` so delayed responses keep their order and their recorded time
/// without making the test wait:
///
/// ```swift
/// let clock = ImmediateClock()
/// let stub = StubClient(clock: clock)
/// stub.on(.get, "/slow").reply(.status(200).delayed(by: .seconds(30)))
/// _ = try await stub.send(request)     // returns at once
/// #expect(clock.elapsed == .seconds(30))
/// ```
public struct ImmediateClock: Clock, Sendable {
  /// A point in this clock's time: the time elapsed since it was created.
  public struct Instant: InstantProtocol, Sendable, Hashable {
    /// The time since the clock was created.
    public let offset: Duration

    /// Creates an instant at `offset` after the clock's start.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes first.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let current = SharedDuration()

  /// Creates a clock at time zero.
  public init() {}

  /// The current instant.
  public var now: Instant { Instant(offset: current.value) }

  /// The smallest step: one nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// The total time slept on this clock (and its copies).
  public var elapsed: Duration { current.value }

  /// Moves the time to `deadline` (if later) and returns at once.
  ///
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.advance(to: deadline.offset)
    await Task.yield()
  }
}

/// A duration shared by a clock and its copies.
final class SharedDuration: Sendable {
  private let storage = Mutex(Duration.zero)

  var value: Duration { storage.withVisibleLock { $0 } }

  func advance(to offset: Duration) {
    storage.withVisibleLock { $0 = max($0, offset) }
  }
}
