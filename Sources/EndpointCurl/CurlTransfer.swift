internal import CCurl
import EndpointKernel
import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

typealias HeadContinuation = UnsafeContinuation<(HTTPResponse, HTTPBody), any Error>
typealias ChunkContinuation = UnsafeContinuation<Data?, any Error>

/// One exchange from start to end, across redirects: the state machine behind
/// ``CurlHTTPClient``.
///
/// libcurl's callbacks, redirects, timeouts and the end of the transfer run on the loop thread
/// and use the loop-only properties without a lock. What the caller's side also touches (the
/// continuations, the queue of unread chunks, the outcome) sits in `shared`, behind a lock;
/// continuations are resumed after the lock is released, from whichever thread settled them.
///
/// `@unchecked Sendable`: the loop-only properties are never touched off the loop thread.
final class CurlTransfer: ChunkedTransfer, @unchecked Sendable {
  typealias Outcome = TransferOutcome

  /// What happens to the body of the current response.
  enum Delivery {
    case pending
    /// A redirect that is followed: the body is dropped.
    case redirect
    /// Collected in memory, handed over with the head at the end.
    case inline
    /// Handed to the caller's body (a `TransferBody`) as it arrives.
    case streaming
    /// Written to the download's file, on a queue of its own.
    case file(DownloadWriter)
    /// The start of a body whose status a download does not accept, for the error.
    case errorBody
  }

  /// What the loop does after the transfer's easy handle finished.
  enum Next {
    case retire
    case restart
  }

  enum TimeoutCheck {
    case expired(any Error)
    case next(ContinuousClock.Instant)
    case none
  }

  /// libcurl's timings for the final request, read just before the handle is recycled.
  struct CurlInfo {
    var nameLookup: Duration?
    var connect: Duration?
    var tlsHandshake: Duration?
    var firstByte: Duration?
    var total: Duration?
    var reusedConnection: Bool?
    var httpVersion: String?
  }

  struct Shared {
    var head: HeadContinuation?
    var waiter: ChunkContinuation?
    /// A streamed body's chunks that arrived ahead of its reader.
    var unread = BodyChunkQueue()
    var outcome: Outcome?
    /// The loop paused the transfer because `unread` reached the stream buffer size.
    var pausedForReader = false

    var isOpen: Bool {
      if case .none = outcome { return true }
      return false
    }
  }

  let loop: CurlLoop
  let method: HTTPMethod
  let url: URL
  let options: TransferOptions
  let mode: TransferMode
  let startInstant = ContinuousClock.now
  /// The request body's stream, for a streamed body.
  let upload: StreamedUpload?
  let shared = Mutex(Shared())

  // Loop thread only.
  var hop: Hop
  var easy: EasyHandle?
  var activeIndex = -1
  var retired = false
  /// Whether the loop wakes this body's waiting reader when its current round ends.
  var readerWakeScheduled = false
  var lastActivity: ContinuousClock.Instant
  var headerList: OpaquePointer?
  var parser = HeadParser()
  var response: HTTPResponse?
  /// Bytes of head lines received for this hop (interim heads included), and of trailer lines
  /// with their count: a server that never ends its head or trailer section is stopped there.
  var headBytes = 0
  var trailerBytes = 0
  var trailerFields = 0
  /// The final response's trailer fields, for the caller's body.
  let trailers = TrailerBox()
  /// The rest of a long redirect body was left unread to follow the redirect at once.
  var abandonedRedirectBody = false
  var delivery = Delivery.pending
  var inline = Data()
  var uploadOffset: Int64 = 0
  var uploadDescriptor: Int32 = -1
  var responseStart: ContinuousClock.Instant?
  var firstBodyByte: ContinuousClock.Instant?
  var expectedLength: Int64?
  var hopBytesReceived: Int64 = 0
  /// The response body's length by its framing while a streamed request body is still being
  /// sent, and whether the end of the exchange was asked of the loop (``watchForAnswer()``).
  var answerLength: Int64?
  var answerEndScheduled = false
  /// The end of a chunked answer, looked for in the raw bytes while the upload is still open.
  var chunkedAnswer: ChunkedBodyEnd?
  /// The answer is delimited by the close of the connection, and the loop looks for it.
  var watchesClosedAnswer = false
  /// Whether the write callback last left its bytes to libcurl (the reader was behind): they
  /// come through it again, so the exchange must not end before.
  var libcurlHoldsBody = false
  /// Whether this hop's response body is decoded by the client (see ``ContentDecoder``): the
  /// caller set no `Accept-Encoding`, so the client offered the codings it decodes.
  var decodesContent = false
  /// The decoder for this hop's body, once its head named a coding it decodes.
  var contentDecoder: ContentDecoder?
  var contentDecoderResolved = false
  var bytesReceived: Int64 = 0
  var bytesSent: Int64 = 0
  var chain: [URL]
  var pendingHead: (HeadContinuation, Result<(HTTPResponse, HTTPBody), any Error>)?
  var pendingWaiter: (ChunkContinuation, Result<Data?, any Error>)?

  init(hop: Hop, options: TransferOptions, mode: TransferMode, loop: CurlLoop) {
    self.loop = loop
    self.hop = hop
    self.options = options
    self.mode = mode
    method = hop.method
    url = hop.url
    chain = [hop.url]
    lastActivity = startInstant
    if case .stream(let upload) = hop.body { self.upload = upload } else { upload = nil }
  }

  var sawSetCookie: Bool { parser.sawSetCookie }

  var isLive: Bool { shared.withVisibleLock { $0.isOpen } }

  // MARK: - Caller side

  /// Queues the transfer on the loop; `continuation` receives the response head and body.
  func begin(_ continuation: HeadContinuation) {
    let failure: (any Error)? = shared.withVisibleLock { shared in
      if case .failed(let error) = shared.outcome { return error }
      shared.head = continuation
      return nil
    }
    if let failure { continuation.resume(throwing: failure) }
    // Even a transfer cancelled before it began goes to the loop, which reports its metrics.
    if !loop.submit(.start(self)) {
      fail(shutDownError())
      upload?.close()
    }
  }

  /// The calling task was cancelled (or the body dropped): stop with `CancellationError`.
  func cancel() {
    stop(with: CancellationError())
  }

  /// Stops the transfer with `error` unless it is already settled, and has the loop detach it.
  /// Any thread.
  func stop(with error: any Error) {
    // A download's caller hears of the error only once the loop has deleted the partial file
    // (the file is the loop's), so nothing is left behind when the call returns.
    let holdHead: Bool
    if case .download = mode { holdHead = true } else { holdHead = false }
    guard fail(error, holdingHead: holdHead) else { return }
    // The caller has its error: the stream of a streamed body is not read any further.
    upload?.close()
    if !loop.submit(.detach(self)) { resumeHeldHead() }
  }

  /// Settles the transfer with `error` unless it is already settled; resumes whoever waits
  /// (except the head's waiter, with `holdingHead`, which the loop resumes when it retires the
  /// transfer). Returns whether this call settled it. Any thread.
  @discardableResult
  func fail(_ error: any Error, holdingHead: Bool = false) -> Bool {
    let (head, waiter, settled) = settleFailure(error, holdingHead: holdingHead)
    head?.resume(throwing: error)
    waiter?.resume(throwing: error)
    return settled
  }

  /// ``fail(_:holdingHead:)`` on the loop thread: the waiting continuations are resumed when the
  /// loop retires the transfer, after its metrics were reported, so a caller that sees the
  /// error can already see the metrics.
  func failOnLoop(_ error: any Error) {
    let (head, waiter, _) = settleFailure(error, holdingHead: false)
    if let head { pendingHead = (head, .failure(error)) }
    if let waiter { pendingWaiter = (waiter, .failure(error)) }
  }

  private func settleFailure(
    _ error: any Error,
    holdingHead: Bool
  ) -> (HeadContinuation?, ChunkContinuation?, Bool) {
    let (head, waiter, dropped, settled) = shared.withVisibleLock {
      shared -> (HeadContinuation?, ChunkContinuation?, Int, Bool) in
      guard shared.isOpen else { return (nil, nil, 0, false) }
      shared.outcome = .failed(error)
      let taken = (holdingHead ? nil : shared.head, shared.waiter)
      if !holdingHead { shared.head = nil }
      shared.waiter = nil
      let dropped = shared.unread.removeAll()
      return (taken.0, taken.1, dropped, true)
    }
    if dropped > 0 { loop.bytesWaitingForReaders.subtract(dropped, ordering: .relaxed) }
    return (head, waiter, settled)
  }

  /// The next chunk of a streamed body, waiting for it if needed.
  func nextChunk() async throws -> Data? {
    let (taken, unpause) = shared.withVisibleLock {
      $0.take(resumeBelow: resumeThreshold)
    }
    if unpause { loop.submit(.unpause(self)) }
    switch taken {
    case .chunk(let data):
      loop.bytesWaitingForReaders.subtract(data.count, ordering: .relaxed)
      return data
    case .end: return nil
    case .failure(let error): throw error
    case .wait: break
    }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: ChunkContinuation) in
        let (taken, unpause) = shared.withVisibleLock { shared in
          let result = shared.take(resumeBelow: resumeThreshold)
          if case .wait = result.0 { shared.waiter = continuation }
          return result
        }
        if unpause { loop.submit(.unpause(self)) }
        deliver(taken, to: continuation)
      }
    } onCancel: {
      cancel()
    }
  }

  /// Wakes the reader waiting for this body with what the loop's round queued for it; the loop
  /// calls it when the round ends (see ``CurlLoop/wakeReaderAfterRound(_:)``). Loop thread.
  func wakeReader() {
    guard readerWakeScheduled else { return }
    readerWakeScheduled = false
    let (waiter, taken, unpause) = shared.withVisibleLock {
      shared -> (ChunkContinuation?, Shared.Take, Bool) in
      guard let waiter = shared.waiter else { return (nil, .wait, false) }
      let (taken, unpause) = shared.take(resumeBelow: resumeThreshold)
      if case .wait = taken { return (nil, taken, unpause) }
      shared.waiter = nil
      return (waiter, taken, unpause)
    }
    if unpause { loop.submit(.unpause(self)) }
    if let waiter { deliver(taken, to: waiter) }
  }

  /// Resumes the reader with what it took; nothing for `.wait` (it keeps waiting).
  private func deliver(_ taken: Shared.Take, to continuation: ChunkContinuation) {
    switch taken {
    case .chunk(let data):
      loop.bytesWaitingForReaders.subtract(data.count, ordering: .relaxed)
      continuation.resume(returning: data)
    case .end: continuation.resume(returning: nil)
    case .failure(let error): continuation.resume(throwing: error)
    case .wait: break
    }
  }

  /// A paused transfer resumes once the unread bytes fall to half the stream buffer.
  private var resumeThreshold: Int { max(0, options.bodyBufferLimit / 2) }
}

extension CurlTransfer.Shared {
  typealias Take = BodyChunkQueue.Take

  /// Takes the next unread chunk; also says whether a paused transfer should now resume.
  mutating func take(resumeBelow threshold: Int) -> (Take, unpause: Bool) {
    if let chunk = unread.next() {
      var unpause = false
      if pausedForReader, unread.bufferedBytes <= threshold, isOpen {
        pausedForReader = false
        unpause = true
      }
      return (.chunk(chunk), unpause)
    }
    if pausedForReader, isOpen {
      pausedForReader = false
      return (.wait, true)
    }
    return (unread.take(outcome: outcome), false)
  }
}
