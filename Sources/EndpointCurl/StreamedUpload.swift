import EndpointKernel
import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A streamed request body on its way to libcurl: a task reads the caller's chunks into a small
/// buffer, and the transfer's read callback, on the loop thread, takes bytes out of it.
///
/// The buffer is the backpressure: the task stops pulling chunks while `capacity` bytes wait to
/// be sent, and goes on once libcurl has taken half of them, so a body of any size costs at most
/// about `capacity` bytes (plus one chunk) of memory. When the buffer is empty the read callback
/// pauses the transfer; the next chunk, the end of the stream or its failure wakes the loop.
///
/// A stream that throws, or that gives more or fewer bytes than the length it declared, stops
/// the transfer at once with that error. With a declared length, the last byte is handed to
/// libcurl only once the stream has ended: a stream that runs longer never reaches the server
/// as a complete request. The task ends when the transfer does (``close()``).
final class StreamedUpload: Sendable {
  /// What the read callback gets.
  enum Read {
    /// This many bytes were copied.
    case bytes(Int)
    /// Nothing is buffered yet: pause the transfer until the stream gives more.
    case pause
    /// The stream ended and every byte was taken.
    case end
    /// The stream failed; the transfer already was, or is being, stopped with this error.
    case failed(any Error)
  }

  fileprivate enum End {
    case finished
    case failed(any Error)
  }

  fileprivate struct State {
    /// Chunks not yet sent in full; the ones before `chunkIndex` were sent and are emptied.
    var chunks: [Data] = []
    var chunkIndex = 0
    /// Bytes of `chunks[chunkIndex]` already sent.
    var chunkOffset = 0
    var buffered = 0
    var produced: Int64 = 0
    /// Bytes handed to libcurl.
    var sent: Int64 = 0
    var end: End?
    /// The transfer ended: the task stops and nothing more is buffered.
    var closed = false
    /// The read callback found the buffer empty and paused the transfer. Cleared only by the
    /// loop thread as it resumes the transfer, so the idle timeout never sees a transfer that
    /// is neither paused nor yet marked active.
    var readerPaused = false
    /// A wake-up for the paused transfer is on its way to the loop: no second one is sent.
    var wakeSent = false
    /// The final response head arrived: waiting for the stream no longer stops the idle timeout.
    var responseArrived = false
    /// The task, waiting for room in the buffer.
    var producer: UnsafeContinuation<Void, Never>?
    /// The transfer to wake; cleared when it ends, which breaks the cycle through its hop.
    var transfer: CurlTransfer?
    var task: Task<Void, Never>?
  }

  /// The length the body declared, if any.
  let declaredLength: Int64?
  private let capacity: Int
  private let loop: CurlLoop
  private let method: HTTPMethod
  private let url: URL
  private let state = Mutex(State())

  init(declaredLength: Int64?, capacity: Int, method: HTTPMethod, url: URL, loop: CurlLoop) {
    self.declaredLength = declaredLength
    self.capacity = max(1, capacity)
    self.method = method
    self.url = url
    self.loop = loop
  }

  /// The producer waits for room until the buffer is down to half its capacity.
  private var resumeThreshold: Int { capacity / 2 }

  /// Whether the stream may still give bytes: `false` once it ended empty. A redirect that
  /// keeps the body can then be followed.
  var mayHaveBytes: Bool {
    state.withVisibleLock { state in
      guard case .finished = state.end else { return true }
      return state.produced > 0
    }
  }

  /// Whether the stream may still give bytes, or gave bytes libcurl has not taken yet.
  var hasUnsentBytes: Bool {
    state.withVisibleLock { state in
      guard !state.closed else { return false }
      guard case .finished = state.end else { return true }
      return state.buffered > 0
    }
  }

  /// Whether the transfer waits for the stream (not for the server): the idle timeout does not
  /// count that time.
  var waitsForProducer: Bool {
    state.withVisibleLock { $0.readerPaused && !$0.responseArrived }
  }

  /// The loop resumes the transfer (it handles an `.unpause`). Loop thread.
  func loopResumes() {
    state.withVisibleLock { state in
      state.readerPaused = false
      state.wakeSent = false
    }
  }

  /// The final response head arrived while the upload may be paused; returns whether the loop
  /// must resume the transfer. A server may answer before it has read the whole body (a `413`,
  /// a `303`): libcurl then stops sending, but completes the transfer only once it is resumed,
  /// which a stream that gives nothing more would never do. Loop thread.
  func responseHeadArrived() -> Bool {
    state.withVisibleLock { state -> Bool in
      state.responseArrived = true
      guard state.readerPaused, !state.wakeSent else { return false }
      state.wakeSent = true
      return true
    }
  }

  // MARK: - The producing task

  /// Starts the task that reads `body` for `transfer`.
  func start(reading body: HTTPBody, for transfer: CurlTransfer) {
    let open = state.withVisibleLock { state -> Bool in
      // Closed already when the client was shut down before the transfer could begin.
      guard !state.closed else { return false }
      state.transfer = transfer
      return true
    }
    guard open else { return }
    let task = Task { await self.produce(from: body) }
    let closed = state.withVisibleLock { state -> Bool in
      if state.closed { return true }
      state.task = task
      return false
    }
    if closed { task.cancel() }
  }

  private func produce(from body: HTTPBody) async {
    do {
      for try await chunk in body {
        guard await push(chunk) else { return }
      }
      finish(nil)
    } catch {
      finish(error)
    }
  }

  /// Buffers `chunk`, then waits while the buffer is full; `false` when the task must stop.
  private func push(_ chunk: Data) async -> Bool {
    enum Step {
      case proceed
      case wait
      case stop
      case tooLong(Int64)
    }
    let count = chunk.count
    let (step, wake) = state.withVisibleLock {
      state -> (Step, CurlTransfer?) in
      guard !state.closed, !state.ended else { return (.stop, nil) }
      if let declaredLength, state.produced + Int64(count) > declaredLength {
        return (.tooLong(state.produced + Int64(count)), nil)
      }
      guard count > 0 else { return (.proceed, nil) }
      state.produced += Int64(count)
      state.chunks.append(chunk)
      state.buffered += count
      loop.bytesWaitingToBeSent.add(count, ordering: .relaxed)
      let wake = state.takeWake()
      return (state.buffered >= capacity ? .wait : .proceed, wake)
    }
    if let wake { loop.submit(.unpause(wake)) }
    switch step {
    case .proceed:
      return true
    case .stop:
      return false
    case .tooLong(let produced):
      finish(mismatch(produced: produced))
      return false
    case .wait:
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let goOn = state.withVisibleLock { state -> Bool in
          if state.closed || state.buffered <= resumeThreshold { return true }
          state.producer = continuation
          return false
        }
        if goOn { continuation.resume() }
      }
      return state.withVisibleLock { !$0.closed }
    }
  }

  /// The stream ended (`error` is `nil`) or failed. A failure, or an end short of the declared
  /// length, stops the transfer at once; a normal end wakes a paused transfer to finish.
  private func finish(_ error: (any Error)?) {
    let (wake, failure) = state.withVisibleLock {
      state -> (CurlTransfer?, (any Error)?) in
      guard !state.closed, !state.ended else { return (nil, nil) }
      var failure = error
      if failure == nil, let declaredLength, state.produced != declaredLength {
        failure = mismatch(produced: state.produced)
      }
      state.end = failure.map { .failed($0) } ?? .finished
      if failure != nil {
        state.readerPaused = false
        return (state.transfer, failure)
      }
      return (state.takeWake(), nil)
    }
    if let wake, let failure {
      wake.stop(with: failure)
    } else if let wake {
      loop.submit(.unpause(wake))
    }
  }

  private func mismatch(produced: Int64) -> TransportFailure {
    TransportFailure.bodyLengthMismatch(
      method: method,
      url: url,
      declared: declaredLength ?? 0,
      produced: produced
    )
  }

  // MARK: - The loop thread

  /// Copies up to `room` buffered bytes into libcurl's `buffer`. Loop thread.
  ///
  /// A producer waiting for room is handed back rather than resumed, so the caller reports the
  /// bytes (upload progress) before the stream is asked for more.
  func read(
    into buffer: UnsafeMutableRawPointer,
    room: Int
  ) -> (Read, producer: UnsafeContinuation<Void, Never>?) {
    state.withVisibleLock { state -> (Read, UnsafeContinuation<Void, Never>?) in
      // Closed while libcurl still sends: the transfer was stopped and is being detached.
      if state.closed { return (.failed(CancellationError()), nil) }
      switch state.end {
      case .failed(let error): return (.failed(error), nil)
      case .finished: if state.buffered == 0 { return (.end, nil) }
      case nil:
        if state.buffered == 0 {
          state.readerPaused = true
          return (.pause, nil)
        }
      }
      var room = room
      if let declaredLength, !state.ended {
        // The byte that completes the declared length waits until the stream has shown that
        // it ends there: a stream that runs longer then fails the transfer before the server
        // has a complete request.
        let allowed = declaredLength - 1 - state.sent
        if allowed <= 0 {
          state.readerPaused = true
          let producer = state.producer
          state.producer = nil
          return (.pause, producer)
        }
        room = min(room, Int(allowed))
      }
      let copied = state.copy(into: buffer, room: room)
      state.sent += Int64(copied)
      loop.bytesWaitingToBeSent.subtract(copied, ordering: .relaxed)
      var producer: UnsafeContinuation<Void, Never>?
      if state.buffered <= resumeThreshold {
        producer = state.producer
        state.producer = nil
      }
      return (.bytes(copied), producer)
    }
  }

  /// The transfer ended or dropped the body: the task stops and the buffer is freed. Any
  /// thread; safe to call more than once.
  func close() {
    let (producer, task) = state.withVisibleLock {
      state -> (UnsafeContinuation<Void, Never>?, Task<Void, Never>?) in
      guard !state.closed else { return (nil, nil) }
      state.closed = true
      state.readerPaused = false
      state.transfer = nil
      loop.bytesWaitingToBeSent.subtract(state.buffered, ordering: .relaxed)
      state.buffered = 0
      state.chunks = []
      state.chunkIndex = 0
      state.chunkOffset = 0
      defer {
        state.producer = nil
        state.task = nil
      }
      return (state.producer, state.task)
    }
    task?.cancel()
    producer?.resume()
  }
}

extension StreamedUpload.State {
  fileprivate var ended: Bool {
    if case .none = end { return false }
    return true
  }

  /// The transfer to wake because the read callback paused it, if it did.
  fileprivate mutating func takeWake() -> CurlTransfer? {
    guard readerPaused, !wakeSent else { return nil }
    wakeSent = true
    return transfer
  }

  /// Moves up to `room` bytes from the front of the buffer into `buffer`; returns the count.
  fileprivate mutating func copy(into buffer: UnsafeMutableRawPointer, room: Int) -> Int {
    var copied = 0
    while copied < room, chunkIndex < chunks.count {
      let offset = chunkOffset
      let count = chunks[chunkIndex].withUnsafeBytes { source in
        guard let base = source.baseAddress else { return 0 }
        let count = min(room - copied, source.count - offset)
        (buffer + copied).copyMemory(from: base + offset, byteCount: count)
        return count
      }
      copied += count
      chunkOffset += count
      if chunkOffset == chunks[chunkIndex].count {
        // Sent chunks are let go at once: the buffer may never run empty on a fast stream.
        chunks[chunkIndex] = Data()
        chunkIndex += 1
        chunkOffset = 0
      }
    }
    if chunkIndex == chunks.count {
      chunks.removeAll(keepingCapacity: true)
      chunkIndex = 0
    } else if chunkIndex >= 64, chunkIndex * 2 >= chunks.count {
      chunks.removeFirst(chunkIndex)
      chunkIndex = 0
    }
    buffered -= copied
    return copied
  }
}
