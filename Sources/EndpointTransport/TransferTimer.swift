import Dispatch
import Synchronization

/// One timer per transfer, on a shared serial queue, for the idle timeout and the deadline.
///
/// It is scheduled for the earliest limit and, when it fires, either stops the transfer or is
/// scheduled again: bytes arriving never touch the timer, they only move the last-activity mark.
final class TransferTimer: Sendable {
  private static let queue = DispatchQueue(label: "Endpoint.TransferTimer", qos: .utility)

  private let source: Mutex<any DispatchSourceTimer>

  init(handler: @escaping @Sendable () -> Void) {
    let source = DispatchSource.makeTimerSource(queue: TransferTimer.queue)
    source.setEventHandler(handler: handler)
    self.source = Mutex(source)
  }

  /// Starts the timer; it first fires after `delay`.
  func start(after delay: Duration) {
    source.withLock { source in
      Self.schedule(source, after: delay)
      source.activate()
    }
  }

  /// Makes the timer fire once after `delay` (replacing any earlier schedule).
  func schedule(after delay: Duration) {
    source.withLock { Self.schedule($0, after: delay) }
  }

  /// Stops the timer for good.
  func cancel() {
    source.withLock { $0.cancel() }
  }

  private static func schedule(_ source: any DispatchSourceTimer, after delay: Duration) {
    source.schedule(
      deadline: .now() + .nanoseconds(Int(clamping: delay.nanoseconds)),
      leeway: .milliseconds(1)
    )
  }
}
