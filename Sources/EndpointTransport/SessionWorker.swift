import Foundation

/// A thread of the client's own for the URLSession calls that may wait on the session's work
/// queue: making, resuming and cancelling tasks, and answering authentication challenges.
///
/// swift-corelibs-foundation runs each of those calls as `DispatchQueue.sync` onto the session's
/// serial work queue. Called from Swift's cooperative pool while that queue is busy (receiving an
/// endless body, say), they would hold pool threads; with two cores, every task of the process
/// would stop. Called from a delegate callback, which runs on that queue (see
/// ``InlineDelegateQueue``), they would deadlock. The worker's thread takes them instead, in the
/// order they were submitted, and runs every job waiting at each wake-up, so a burst of requests
/// costs one wake-up, not one per request.
final class SessionWorker: @unchecked Sendable {
  typealias Job = @Sendable () -> Void

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var jobs: [Job] = []
  private var sleeping = false
  private var stopped = false
  private var last: Job?

  /// Starts the worker's thread.
  init(name: String) {
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.start()
  }

  /// One worker for the whole process, for `URLSession`'s own ``EndpointCore/HTTPClient``
  /// conformance, which has no client to own one.
  static let shared = SessionWorker(name: "Endpoint.URLSession.worker")

  /// Runs `job` on the worker's thread, after every job submitted before it.
  ///
  /// Once the worker is stopped (its client was released while a transfer still ran), `job`
  /// runs on a global queue instead, or `afterStop` when given: the client's session is
  /// invalidated by then, and making a task on it would end the process.
  func submit(_ job: @escaping Job, afterStop: Job? = nil) {
    condition.lock()
    if stopped {
      condition.unlock()
      DispatchQueue.global().async(execute: afterStop ?? job)
      return
    }
    jobs.append(job)
    let wake = sleeping
    condition.unlock()
    if wake { condition.signal() }
  }

  /// Ends the thread once every job submitted so far has run, then runs `last` on it; later
  /// jobs go elsewhere (see ``submit(_:afterStop:)``).
  func stop(then last: Job? = nil) {
    condition.lock()
    stopped = true
    self.last = last
    let wake = sleeping
    condition.unlock()
    if wake { condition.signal() }
  }

  private func run() {
    var batch: [Job] = []
    while true {
      condition.lock()
      while jobs.isEmpty && !stopped {
        sleeping = true
        condition.wait()
        sleeping = false
      }
      if jobs.isEmpty {
        let final = last
        condition.unlock()
        final?()
        return
      }
      swap(&batch, &jobs)
      condition.unlock()
      for job in batch { job() }
      batch.removeAll(keepingCapacity: true)
    }
  }
}
