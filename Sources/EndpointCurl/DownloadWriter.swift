import Dispatch
import EndpointKernel
import Synchronization

/// The file of a `download(_:to:)`, written on a serial queue of its own while the loop thread
/// goes on receiving.
///
/// Written from the loop thread between receives, a gigabyte took longer than a caller that
/// streamed it and wrote each chunk on its own task: the two overlap on two cores. Here the loop
/// copies each piece of the body into a pooled buffer and hands full buffers to the queue, which
/// writes them in order and gives the buffers back. At most ``highWater`` bytes wait to be
/// written: past it the transfer pauses, and it resumes once the queue has written them down to
/// ``lowWater``, so a slow disk costs no more memory than that.
///
/// `@unchecked Sendable`: the buffer being filled is only touched on the loop thread; what the
/// queue shares with the loop sits behind `state`.
final class DownloadWriter: @unchecked Sendable {
  /// The size of every buffer handed to the queue, one `write(2)` each.
  static let bufferSize = 512 * 1024
  /// The most bytes waiting to be written before the transfer pauses.
  static let highWater = 8 * bufferSize
  /// The bytes still waiting when a paused transfer resumes.
  static let lowWater = 4 * bufferSize

  /// What the loop does with the piece it offered.
  enum Offer {
    /// Copied; it will be written.
    case taken
    /// Not taken: the queue is behind, and ``DownloadWriter/init(file:resume:)``'s `resume`
    /// runs once it has caught up.
    case pause
    /// Not taken: an earlier write failed with this error.
    case failed(TransportFailure)
  }

  private struct State {
    var waiting = 0
    var paused = false
    var failure: TransportFailure?
  }

  let file: DownloadFile
  private let pool = ChunkBufferPool(capacity: bufferSize, retaining: highWater / bufferSize + 1)
  private let queue: DispatchQueue
  private let state = Mutex(State())
  private let resume: @Sendable () -> Void
  /// The buffer being filled on the loop thread, and its bytes.
  private var open: UnsafeMutableRawPointer?
  private var filled = 0

  /// A writer of `file` that calls `resume` (on the queue) when a transfer it paused may go on.
  /// Tests pass a `queue` they can suspend, to stand for a slow disk.
  init(
    file: DownloadFile,
    queue: DispatchQueue = DispatchQueue(label: "EndpointCurl.download"),
    resume: @escaping @Sendable () -> Void
  ) {
    self.file = file
    self.queue = queue
    self.resume = resume
  }

  deinit {
    if let open { pool.recycle(open) }
  }

  /// Copies `bytes` to be written, unless the queue is behind or a write failed. Loop thread.
  func offer(_ bytes: UnsafeRawBufferPointer) -> Offer {
    let refusal = state.withLock { state -> Offer? in
      if let failure = state.failure { return .failed(failure) }
      guard state.waiting >= Self.highWater else { return nil }
      state.paused = true
      return .pause
    }
    if let refusal { return refusal }
    guard var source = bytes.baseAddress else { return .taken }
    var remaining = bytes.count
    while remaining > 0 {
      let buffer = open ?? pool.take()
      open = buffer
      let count = min(remaining, Self.bufferSize - filled)
      (buffer + filled).copyMemory(from: source, byteCount: count)
      filled += count
      source += count
      remaining -= count
      if filled == Self.bufferSize { flush() }
    }
    return .taken
  }

  /// Hands the buffer being filled to the queue. Loop thread.
  private func flush() {
    guard let buffer = open, filled > 0 else { return }
    let count = filled
    open = nil
    filled = 0
    state.withLock { $0.waiting += count }
    // The address crosses to the queue as a number: the buffer is the queue's until recycled.
    let address = UInt(bitPattern: buffer)
    queue.async { [self] in
      guard let buffer = UnsafeMutableRawPointer(bitPattern: address) else { return }
      defer { pool.recycle(buffer) }
      var failure: TransportFailure?
      do throws(TransportFailure) {
        try file.write(buffer, count: count)
      } catch {
        failure = error
      }
      let resumes = state.withLock { state -> Bool in
        state.waiting -= count
        if let failure, state.failure == nil { state.failure = failure }
        guard state.paused, state.waiting <= Self.lowWater || state.failure != nil else {
          return false
        }
        state.paused = false
        return true
      }
      if resumes { resume() }
    }
  }

  /// Writes what is left, waits for the queue, and moves the file to its destination; the
  /// queue holds at most ``highWater`` bytes, a few milliseconds of writing. Loop thread.
  func finish() throws(TransportFailure) {
    flush()
    queue.sync {}
    if let failure = state.withLock({ $0.failure }) {
      file.discard()
      throw failure
    }
    try file.commit()
  }

  /// Deletes the partial file; writes still queued find it closed and write nothing. Any thread.
  func discard() {
    file.discard()
  }
}
