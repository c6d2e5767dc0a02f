import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

typealias HeadContinuation = UnsafeContinuation<(HTTPResponse, HTTPBody), any Error>
/// A transfer's caller waits here; it converts the head itself (see ``FoundationResponseHead``).
typealias TransferHeadContinuation =
  UnsafeContinuation<(FoundationResponseHead, HTTPBody), any Error>
typealias ChunkContinuation = UnsafeContinuation<Data?, any Error>

/// The limits and callbacks of one transfer.
struct TransferOptions: Sendable {
  var idleTimeout: Duration?
  var deadline: Duration?
  var redirectLimit: Int?
  /// Fields dropped across origins beside the SDK's credential fields.
  var credentialFieldNames: Set<String> = []
  var maximumResponseSize: Int?
  var bodyBufferLimit: Int
  var inlineBodyLimit: Int
  var foundationTimeout: TimeInterval
  var metricsObserver: (@Sendable (TransferMetrics) -> Void)?
  var uploadProgress: (@Sendable (TransferProgress) -> Void)?
  var downloadProgress: (@Sendable (TransferProgress) -> Void)?
  /// Where response cookies go when the client stores them in URLSession's place.
  var cookies: CookieJar?
  /// The client's open/closed state: a hop is not launched once the client is shut down.
  var lifecycle: ClientLifecycle?
  /// The limit on the wait for a first sign of a connection (see `Transfer+ConnectTimeout`).
  var connectTimeout: Duration?
}

/// One request from start to end, across redirects: the state machine behind
/// ``URLSessionHTTPClient``.
///
/// Delegate callbacks arrive on the session's serial queue; the caller's task, cancellation and
/// the timer arrive from other threads. Every change happens under one lock, and continuations
/// are resumed after the lock is released, directly from the callback that completes them: no
/// extra task, actor or queue hop on the way.
final class Transfer: TimeoutTarget {
  let method: HTTPMethod
  let url: URL
  let options: TransferOptions
  let mode: TransferMode
  private let session: URLSession
  private let router: TaskRouter
  private let worker: SessionWorker
  private let canceller: SessionWorker
  private let timeouts: TimeoutScheduler
  private let temporaryBodyFile: URL?
  private let startInstant = ContinuousClock.now
  private let startDate = Date()
  private let state: Mutex<State>

  init(
    hop: Hop,
    options: TransferOptions,
    mode: TransferMode,
    session: URLSession,
    router: TaskRouter,
    worker: SessionWorker,
    canceller: SessionWorker,
    timeouts: TimeoutScheduler,
    temporaryBodyFile: URL?
  ) {
    method = hop.method
    url = hop.url
    self.options = options
    self.mode = mode
    self.session = session
    self.router = router
    self.worker = worker
    self.canceller = canceller
    self.timeouts = timeouts
    self.temporaryBodyFile = temporaryBodyFile
    state = Mutex(
      State(hop: hop, now: startInstant, collectsMetrics: options.metricsObserver != nil)
    )
  }

  // MARK: - Caller side

  /// Starts the transfer; `continuation` receives the response head and body.
  ///
  /// Making and resuming the task wait on the session's work queue. When the session has
  /// nothing else in flight, that queue is idle and the wait is nothing: the task is made here,
  /// with no hop (the plain, sequential request path). Otherwise the queue may be busy for long
  /// (a body without end, read or dropped, leaves Foundation no gap for up to seconds), and the
  /// task is made on the client's worker thread, so that the caller's thread, one of the
  /// cooperative pool's, never waits (see ``SessionWorker``).
  func start(_ continuation: TransferHeadContinuation) {
    let failure: (any Error)? = state.withLock { state in
      if case .failed(let error) = state.outcome { return error }
      state.head = continuation
      return nil
    }
    if let failure {
      continuation.resume(throwing: failure)
      return
    }
    startTimer()
    let hop = state.withLock { $0.hop }
    if router.isIdle {
      launch(hop)
    } else {
      worker.submit({ self.launch(hop) }, afterStop: { self.fail(with: CancellationError()) })
    }
  }

  /// The calling task was cancelled: stop the transfer and throw `CancellationError`.
  func cancel() {
    let effects = state.withLock { state -> Effects in
      guard state.outcome == nil else { return Effects() }
      state.cancelRequested = true
      return state.terminate(with: CancellationError())
    }
    perform(effects)
  }

  /// The response body was dropped before its end: nobody will read the rest.
  func abandon() {
    cancel()
  }

  /// The next chunk of a streamed body, waiting for it if needed.
  func nextChunk() async throws -> Data? {
    switch state.withLock({ $0.takeChunk() }) {
    case .chunk(let data): return data
    case .end: return nil
    case .failure(let error): throw error
    case .wait: break
    }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: ChunkContinuation) in
        let taken = state.withLock { state -> State.Take in
          let taken = state.takeChunk()
          if case .wait = taken { state.waiter = continuation }
          return taken
        }
        switch taken {
        case .chunk(let data): continuation.resume(returning: data)
        case .end: continuation.resume(returning: nil)
        case .failure(let error): continuation.resume(throwing: error)
        case .wait: break
        }
      }
    } onCancel: {
      cancel()
    }
  }

  // MARK: - Delegate side

  func didReceive(_ urlResponse: URLResponse, task: URLSessionTask) {
    options.cookies?.store(from: urlResponse)
    let now = ContinuousClock.now
    let effects = state.withLock { state -> Effects in
      guard state.outcome == nil, state.task === task, state.redirect == nil else {
        return Effects()
      }
      state.lastActivity = now
      let response = FoundationResponseHead(urlResponse)
      let answered = response.url ?? state.hop.url
      if let refusal = response.refusal(
        method: state.hop.method,
        url: answered,
        request: state.hop.headerFields
      ) {
        return state.terminate(with: refusal)
      }
      state.response = response
      state.responseStart = now
      let declared = response.declaredBodyLength(method: state.hop.method)
      state.expectedLength = declared
      if let limit = options.maximumResponseSize, let declared, declared > Int64(limit) {
        return state.terminate(with: ResponseTooLarge(limit: limit, received: declared))
      }
      switch mode {
      case .download(let destination, let accepted):
        guard accepted.contains(response.status) else {
          state.delivery = .errorBody
          return Effects()
        }
        do {
          state.delivery = .file(try DownloadFile(destination: destination))
        } catch {
          return state.terminate(with: error)
        }
        return Effects()
      case .stream:
        if let declared, declared <= Int64(options.inlineBodyLimit) {
          state.delivery = .inline
          return Effects()
        }
        return state.startStreaming(body: streamBody(length: declared))
      }
    }
    perform(effects)
  }

  func didReceive(_ data: Data, task: URLSessionTask) {
    let now = ContinuousClock.now
    var file: DownloadFile?
    var progress: TransferProgress?
    let effects = state.withLock { state -> Effects in
      guard state.outcome == nil, state.task === task else { return Effects() }
      state.lastActivity = now
      state.bytesReceived += Int64(data.count)
      guard state.redirect == nil else { return Effects() }
      if state.firstByte == nil { state.firstByte = now }
      state.hopBytesReceived += Int64(data.count)
      if let limit = options.maximumResponseSize, state.hopBytesReceived > Int64(limit) {
        return state.terminate(
          with: ResponseTooLarge(limit: limit, received: state.hopBytesReceived)
        )
      }
      switch state.delivery {
      case .pending, .inline:
        // A small body usually arrives in one piece: keep that piece rather than copy it.
        if state.inlineData.isEmpty {
          state.inlineData = data
        } else {
          state.inlineData.append(data)
        }
        if state.inlineData.count > options.inlineBodyLimit, state.head != nil,
          state.delivery == .inline
        {
          // A compressed body grew past its declared length: stream it after all.
          let buffered = state.inlineData
          state.inlineData = Data()
          state.chunks.append(buffered)
          state.bufferedBytes = buffered.count
          return state.startStreaming(body: streamBody(length: nil))
        }
      case .streaming:
        if let waiter = state.waiter {
          state.waiter = nil
          var effects = Effects()
          effects.waiter = (waiter, .success(data))
          return effects
        }
        state.chunks.append(data)
        state.bufferedBytes += data.count
        if state.bufferedBytes > options.bodyBufferLimit {
          let url = state.response?.url ?? state.hop.url
          return state.terminate(
            with: ResponseBufferOverflow(
              method: state.hop.method,
              url: url,
              limit: options.bodyBufferLimit
            )
          )
        }
      case .file(let target):
        file = target
        if options.downloadProgress != nil {
          progress = TransferProgress(
            completed: state.hopBytesReceived,
            expected: state.expectedLength
          )
        }
      case .errorBody:
        if state.inlineData.count < 1024 * 1024 { state.inlineData.append(data) }
      }
      return Effects()
    }
    perform(effects)
    if let file {
      do {
        try file.write(data)
      } catch {
        fail(with: error)
        return
      }
    }
    if let progress { options.downloadProgress?(progress) }
  }

  func didSendBodyData(totalBytesSent: Int64, totalBytesExpected: Int64, task: URLSessionTask) {
    let now = ContinuousClock.now
    let live = state.withLock { state -> Bool in
      guard state.outcome == nil, state.task === task else { return false }
      state.lastActivity = now
      state.hopBytesSent = totalBytesSent
      return true
    }
    if live, let uploadProgress = options.uploadProgress {
      uploadProgress(
        TransferProgress(
          completed: totalBytesSent,
          expected: totalBytesExpected > 0 ? totalBytesExpected : nil
        )
      )
    }
  }

  /// A redirect arrived. The SDK always tells URLSession not to follow it (so the 3xx comes in
  /// as an ordinary response); when the policy follows it, the 3xx is ignored and, once its
  /// task completes, a new task sends the request built by ``RedirectRule``.
  ///
  /// - Returns: whether URLSession's redirect completion handler may be called. URLSession on
  ///   Linux crashes the process when a cancellation reaches the task between this callback and
  ///   the handler's answer (the answer then finds the task no longer waiting for it). So once a
  ///   cancellation of the task has been sent, the handler is never called (the cancellation
  ///   completes the task); once the handler is called, the task is never cancelled (its 3xx
  ///   was received whole, and it completes by itself at once).
  func willRedirect(
    _ response: HTTPURLResponse,
    to newRequest: URLRequest,
    task: URLSessionTask
  ) -> Bool {
    let answer = state.withLock { state -> Bool in
      guard state.task === task else { return true }
      if state.taskCancelSent { return false }
      state.redirectAnswered = true
      return true
    }
    guard answer else { return false }
    // Stored before the next request is made, which URLSession gives the stored cookies.
    options.cookies?.store(from: response)
    guard let limit = options.redirectLimit,
      RedirectRule.isFollowed(response.statusCode)
    else { return true }
    let locationValue = response.value(forHTTPHeaderField: "Location") ?? ""
    let now = ContinuousClock.now
    let effects = state.withLock { state -> Effects in
      guard state.outcome == nil, state.task === task else { return Effects() }
      state.lastActivity = now
      let location: URL
      do {
        location = try RedirectRule.location(
          locationValue,
          relativeTo: state.hop.url,
          status: response.statusCode
        )
      } catch {
        return state.terminate(with: error)
      }
      if state.chain.count > limit {
        return state.terminate(
          with: TooManyRedirects(method: method, limit: limit, chain: state.chain + [location])
        )
      }
      do {
        state.redirect = try RedirectRule.next(
          after: state.hop,
          status: response.statusCode,
          location: location,
          credentialFieldNames: options.credentialFieldNames
        )
        state.chain.append(location)
      } catch {
        return state.terminate(with: error)
      }
      return Effects()
    }
    perform(effects)
    return true
  }

  /// An authentication challenge was answered with "cancel" so that the 401 reaches the caller;
  /// the cancellation URLSession then reports ends the body normally.
  func noteChallengeCancelled(task: URLSessionTask) {
    state.withLock { state in
      if state.task === task { state.challengeCancelled = true }
    }
  }

  func didComplete(task: URLSessionTask, error: (any Error)?) {
    let now = ContinuousClock.now
    var next: Hop?
    var download: (DownloadFile, TransferHeadContinuation?, FoundationResponseHead)?
    let effects = state.withLock { state -> Effects in
      guard state.outcome == nil, state.task === task else { return Effects() }
      state.lastActivity = now
      let urlError = error.flatMap(Transfer.urlError(from:))
      let benignCancel =
        state.challengeCancelled && urlError?.code == .cancelled && !state.cancelRequested
      guard error == nil || benignCancel else {
        var effects = state.terminate(with: mapError(error, urlError, state: state, now: now))
        effects.cancelTask = nil  // already complete
        return effects
      }
      if let redirect = state.redirect {
        state.beginHop(redirect)
        next = redirect
        return Effects()
      }
      guard let response = state.response else {
        return state.terminate(
          with: MalformedResponse(
            method: state.hop.method,
            url: state.hop.url,
            reason: "the transfer ended without a response head"
          )
        )
      }
      switch state.delivery {
      case .file(let file):
        state.outcome = .finished
        download = (file, state.head, response)
        state.head = nil
        return Effects(stopTimer: true)
      case .errorBody:
        let accepted: AcceptedStatus
        if case .download(_, let set) = mode { accepted = set } else { accepted = .success }
        return state.terminate(
          with: UnexpectedResponse(
            method: state.hop.method,
            url: response.url ?? state.hop.url,
            response: response.converted,
            body: state.inlineData,
            accepted: accepted
          )
        )
      case .pending, .inline, .streaming:
        return state.finish()
      }
    }
    perform(effects)
    if let next {
      // Making and resuming a task waits on the session's work queue, which may be running this
      // callback (see InlineDelegateQueue).
      worker.submit({ self.launch(next) }, afterStop: { self.fail(with: CancellationError()) })
    } else if let (file, head, response) = download {
      do {
        try file.commit()
        deliverMetrics(state.withLock { $0.snapshot(error: nil) })
        removeTemporaryBodyFile()
        head?.resume(returning: (response, HTTPBody.empty))
      } catch {
        deliverMetrics(state.withLock { $0.snapshot(error: error) })
        removeTemporaryBodyFile()
        head?.resume(throwing: error)
      }
    }
  }

  // MARK: - Internals

  func fail(with error: any Error) {
    let effects = state.withLock { state -> Effects in
      guard state.outcome == nil else { return Effects() }
      return state.terminate(with: error)
    }
    perform(effects)
  }

  private func streamBody(length: Int64?) -> HTTPBody {
    HTTPBody(ResponseBodyStream(transfer: self), length: length)
  }

  private func launch(_ hop: Hop) {
    // Stopped while waiting for the worker: no task to make.
    if state.withLock({ $0.outcome != nil }) { return }
    if options.lifecycle?.isClosed == true {
      fail(with: URLSessionHTTPClient.ShutDown(method: method, url: url))
      return
    }
    let request = hop.urlRequest(timeoutInterval: options.foundationTimeout)
    let task: URLSessionTask
    switch hop.body {
    case .none:
      task = session.dataTask(with: request)
    case .data(let data):
      task =
        data.isEmpty
        ? session.dataTask(with: request) : session.uploadTask(with: request, from: data)
    case .file(let fileURL):
      task = session.uploadTask(with: request, fromFile: fileURL)
    }
    router.register(task, for: self)
    let live = state.withLock { state -> Bool in
      guard state.outcome == nil else { return false }
      state.task = task
      return true
    }
    if live {
      task.resume()
    } else {
      // Stopped while the task was being made: complete it so the session forgets it.
      router.remove(task)
      router.noteCancellation(of: task)
      canceller.submit { task.cancel() }
    }
  }

  private func startTimer() {
    var first = options.connectTimeout
    if let idle = options.idleTimeout { first = min(first ?? idle, idle) }
    if let deadline = options.deadline { first = min(first ?? deadline, deadline) }
    guard let first else { return }
    timeouts.add(self, checkAt: startInstant + first)
    // Stopped while being added: nothing will remove it later.
    if state.withLock({ $0.outcome != nil }) { timeouts.remove(self) }
  }

  func checkTimeouts(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    var reschedule: Duration?
    let effects = state.withLock { state -> Effects in
      guard state.outcome == nil else { return Effects() }
      let elapsed = now - startInstant
      let url = state.response?.url ?? state.hop.url
      if let deadline = options.deadline, elapsed >= deadline {
        return state.terminate(
          with: DeadlineExceeded(method: method, url: url, limit: deadline, elapsed: elapsed)
        )
      }
      var wait = connectWait(state: state, elapsed: elapsed)
      if let wait, wait <= .zero, let limit = options.connectTimeout {
        return state.terminate(with: ConnectTimeout(method: method, url: url, limit: limit))
      }
      if let idle = options.idleTimeout {
        let silence = now - state.lastActivity
        if silence >= idle {
          return state.terminate(
            with: IdleTimeout(method: method, url: url, limit: idle, silence: silence)
          )
        }
        wait = min(wait ?? idle - silence, idle - silence)
      }
      if let deadline = options.deadline {
        wait = min(wait ?? deadline - elapsed, deadline - elapsed)
      }
      reschedule = wait
      return Effects()
    }
    perform(effects)
    return reschedule.map { now + $0 }
  }

  private func mapError(
    _ error: (any Error)?,
    _ urlError: URLError?,
    state: State,
    now: ContinuousClock.Instant
  ) -> any Error {
    let url = state.response?.url ?? state.hop.url
    guard let urlError else { return error ?? CancellationError() }
    switch urlError.code {
    case .cancelled where state.cancelRequested:
      return CancellationError()
    case .timedOut:
      let limit = options.idleTimeout ?? .seconds(options.foundationTimeout)
      return IdleTimeout(method: method, url: url, limit: limit, silence: now - state.lastActivity)
    case .httpTooManyRedirects:
      return TooManyRedirects(method: method, limit: state.chain.count - 1, chain: state.chain)
    case .unsupportedURL where Transfer.isHTTP(state.hop.url):
      // What URLSession on Linux reports for a status line it cannot read.
      return MalformedResponse(
        method: state.hop.method,
        url: url,
        reason: "the status line cannot be read"
      )
    default:
      return ConnectionFailure(method: state.hop.method, url: url, underlying: urlError)
    }
  }

  static func isHTTP(_ url: URL) -> Bool {
    guard let scheme = url.scheme else { return false }
    return FieldName.equals(scheme, "http") || FieldName.equals(scheme, "https")
  }

  static func urlError(from error: any Error) -> URLError? {
    if let urlError = error as? URLError { return urlError }
    let nsError = error as NSError
    guard nsError.domain == NSURLErrorDomain else { return nil }
    #if canImport(FoundationNetworking)
      let code = URLError.Code(rawValue: nsError.code) ?? .unknown
    #else
      let code = URLError.Code(rawValue: nsError.code)
    #endif
    return URLError(code, userInfo: nsError.userInfo)
  }

  private func perform(_ effects: Effects) {
    if effects.stopTimer {
      timeouts.remove(self)
    }
    // Before the caller resumes: once a call returns or throws, its metrics are delivered and
    // its temporary body file is gone.
    effects.discardFile?.discard()
    if let metrics = effects.metrics {
      deliverMetrics(metrics)
    }
    if effects.ended {
      removeTemporaryBodyFile()
    }
    if let (continuation, result) = effects.head {
      continuation.resume(with: result)
    }
    if let (continuation, result) = effects.waiter {
      continuation.resume(with: result)
    }
    if let task = effects.cancelTask {
      // Never on the caller's thread: URLSession on Linux can deadlock when a cancel lands
      // while the task completes on the thread that asked for it, and `cancel()` waits on the
      // session's work queue, which may be running this callback or be busy for a while.
      // On a thread of its own: a cancellation may wait long for a flooded work queue, and
      // new requests must not wait behind it. Until the task completes, the session counts as
      // possibly flooded (see `start`).
      router.noteCancellation(of: task)
      canceller.submit { task.cancel() }
    }
  }

  private func deliverMetrics(_ snapshot: State.Snapshot) {
    guard let observer = options.metricsObserver else { return }
    observer(
      TransferMetrics(
        method: method,
        url: url,
        finalURL: snapshot.finalURL,
        status: snapshot.status,
        startDate: startDate,
        start: startInstant,
        responseStart: snapshot.responseStart,
        firstBodyByte: snapshot.firstByte,
        end: ContinuousClock.now,
        bytesSent: snapshot.bytesSent,
        bytesReceived: snapshot.bytesReceived,
        redirectCount: snapshot.redirectCount,
        error: snapshot.error
      )
    )
  }

  private func removeTemporaryBodyFile() {
    if let temporaryBodyFile {
      try? FileManager.default.removeItem(at: temporaryBodyFile)
    }
  }
}

extension Transfer {
  /// What to do once the lock is released.
  struct Effects {
    var head: (TransferHeadContinuation, Result<(FoundationResponseHead, HTTPBody), any Error>)?
    var waiter: (ChunkContinuation, Result<Data?, any Error>)?
    var cancelTask: URLSessionTask?
    var discardFile: DownloadFile?
    var metrics: State.Snapshot?
    var stopTimer = false
    /// The transfer finished or failed just now (a download's end is handled apart).
    var ended = false
  }

  enum Outcome {
    case finished
    case failed(any Error)
  }

  enum Delivery: Equatable {
    case pending
    case inline
    case streaming
    case file(DownloadFile)
    case errorBody

    static func == (lhs: Delivery, rhs: Delivery) -> Bool {
      switch (lhs, rhs) {
      case (.pending, .pending), (.inline, .inline), (.streaming, .streaming),
        (.errorBody, .errorBody):
        true
      case (.file(let left), .file(let right)): left === right
      default: false
      }
    }
  }

  /// Everything that changes during a transfer; only touched under the lock.
  struct State {
    var hop: Hop
    var task: URLSessionTask?
    var head: TransferHeadContinuation?
    var response: FoundationResponseHead?
    var delivery = Delivery.pending
    var inlineData = Data()
    var chunks: [Data] = []
    var chunkIndex = 0
    var bufferedBytes = 0
    var waiter: ChunkContinuation?
    var outcome: Outcome?
    var cancelRequested = false
    var challengeCancelled = false
    /// A cancellation of `task` was sent to the canceller: its redirect is never answered.
    var taskCancelSent = false
    /// `task`'s redirect was answered: it completes by itself and is never cancelled.
    var redirectAnswered = false
    var redirect: Hop?
    var chain: [URL]
    var lastActivity: ContinuousClock.Instant
    var responseStart: ContinuousClock.Instant?
    var firstByte: ContinuousClock.Instant?
    var expectedLength: Int64?
    var bytesSentBefore: Int64 = 0
    var hopBytesSent: Int64 = 0
    var hopBytesReceived: Int64 = 0
    var bytesReceived: Int64 = 0
    /// Whether anyone observes metrics: without an observer no snapshot is taken.
    let collectsMetrics: Bool

    init(hop: Hop, now: ContinuousClock.Instant, collectsMetrics: Bool) {
      self.hop = hop
      chain = [hop.url]
      lastActivity = now
      self.collectsMetrics = collectsMetrics
    }

    enum Take {
      case chunk(Data)
      case end
      case failure(any Error)
      case wait
    }

    struct Snapshot {
      var finalURL: URL?
      var status: Int?
      var responseStart: ContinuousClock.Instant?
      var firstByte: ContinuousClock.Instant?
      var bytesSent: Int64
      var bytesReceived: Int64
      var redirectCount: Int
      var error: (any Error)?
    }

    mutating func takeChunk() -> Take {
      if chunkIndex < chunks.count {
        let chunk = chunks[chunkIndex]
        chunkIndex += 1
        bufferedBytes -= chunk.count
        if chunkIndex == chunks.count {
          chunks.removeAll(keepingCapacity: true)
          chunkIndex = 0
        }
        return .chunk(chunk)
      }
      switch outcome {
      case .finished: return .end
      case .failed(let error): return .failure(error)
      case nil: return .wait
      }
    }

    /// Hands the head to the caller with a streamed body.
    mutating func startStreaming(body: HTTPBody) -> Effects {
      delivery = .streaming
      var effects = Effects()
      if let head, let response {
        self.head = nil
        effects.head = (head, .success((response, body)))
      }
      return effects
    }

    /// Resets the per-response state for the next request of a redirect chain.
    mutating func beginHop(_ next: Hop) {
      hop = next
      redirect = nil
      task = nil
      taskCancelSent = false
      redirectAnswered = false
      response = nil
      responseStart = nil
      firstByte = nil
      expectedLength = nil
      delivery = .pending
      inlineData = Data()
      bytesSentBefore += hopBytesSent
      hopBytesSent = 0
      hopBytesReceived = 0
      challengeCancelled = false
    }

    /// The body ended normally.
    mutating func finish() -> Effects {
      outcome = .finished
      var effects = Effects(stopTimer: true)
      if let head, let response {
        self.head = nil
        effects.head = (head, .success((response, HTTPBody(inlineData))))
        inlineData = Data()
      }
      if let waiter {
        self.waiter = nil
        effects.waiter = (waiter, .success(nil))
      }
      effects.ended = true
      if collectsMetrics { effects.metrics = snapshot(error: nil) }
      return effects
    }

    /// The transfer failed or was stopped: everyone waiting gets `error`.
    mutating func terminate(with error: any Error) -> Effects {
      outcome = .failed(error)
      var effects = Effects(stopTimer: true)
      if let head {
        self.head = nil
        effects.head = (head, .failure(error))
      }
      if let waiter {
        self.waiter = nil
        effects.waiter = (waiter, .failure(error))
      }
      chunks = []
      chunkIndex = 0
      bufferedBytes = 0
      inlineData = Data()
      if let task, !redirectAnswered {
        effects.cancelTask = task
        taskCancelSent = true
      }
      if case .file(let file) = delivery { effects.discardFile = file }
      effects.ended = true
      if collectsMetrics { effects.metrics = snapshot(error: error) }
      return effects
    }

    func snapshot(error: (any Error)?) -> Snapshot {
      Snapshot(
        finalURL: response?.url,
        status: response?.status,
        responseStart: responseStart,
        firstByte: firstByte,
        bytesSent: bytesSentBefore + hopBytesSent,
        bytesReceived: bytesReceived,
        redirectCount: chain.count - 1,
        error: error
      )
    }
  }
}
