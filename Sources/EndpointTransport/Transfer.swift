import EndpointKernel
import EndpointPrimitives
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

/// The limits and callbacks of one transfer: EndpointCore's `TransferOptions`, read through
/// (`options.idleTimeout`), and what only the URLSession client needs.
@dynamicMemberLookup
struct SessionTransferOptions: Sendable {
  var shared: TransferOptions
  /// The timeout given to Foundation, a backstop behind the SDK's own timer.
  var foundationTimeout: TimeInterval
  /// Where response cookies go when the client stores them in URLSession's place.
  var cookies: CookieJar?
  /// The client's open/closed state: a hop is not launched once the client is shut down.
  var lifecycle: ClientLifecycle?
  /// The limit on the wait for a first sign of a connection (see `Transfer+ConnectTimeout`).
  var connectTimeout: Duration?
  /// Whether a hop may go through the proxy the environment names (see ``EnvironmentProxy``).
  var allowsEnvironmentProxy = false

  subscript<Value>(dynamicMember keyPath: KeyPath<TransferOptions, Value>) -> Value {
    shared[keyPath: keyPath]
  }
}

/// One request from start to end, across redirects: the state machine behind
/// ``URLSessionHTTPClient``.
///
/// Delegate callbacks arrive on the session's serial queue; the caller's task, cancellation and
/// the timer arrive from other threads. Every change happens under one lock, and continuations
/// are resumed after the lock is released, directly from the callback that completes them: no
/// extra task, actor or queue hop on the way.
final class Transfer: TimeoutTarget, ChunkedTransfer {
  let method: HTTPMethod
  let url: URL
  let options: SessionTransferOptions
  let mode: TransferMode
  private let session: URLSession
  private let router: TaskRouter
  let worker: SessionWorker
  private let canceller: SessionWorker
  let timeouts: TimeoutScheduler
  private let temporaryBodyFile: URL?
  let startInstant = ContinuousClock.now
  let startDate = Date()
  let state: Mutex<State>

  init(
    hop: Hop,
    options: SessionTransferOptions,
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
    let failure: (any Error)? = state.withVisibleLock { state in
      if case .failed(let error) = state.outcome { return error }
      state.head = continuation
      return nil
    }
    if let failure {
      continuation.resume(throwing: failure)
      return
    }
    startTimer()
    let hop = state.withVisibleLock { $0.hop }
    if router.isIdle {
      launch(hop)
    } else {
      worker.submit({ self.launch(hop) }, afterStop: { self.fail(with: CancellationError()) })
    }
  }

  /// The calling task was cancelled: stop the transfer and throw `CancellationError`.
  func cancel() {
    let effects = state.withVisibleLock { state -> Effects in
      guard state.outcome == nil else { return Effects() }
      state.cancelRequested = true
      return state.terminate(with: CancellationError())
    }
    perform(effects)
  }

  /// The next chunk of a streamed body, waiting for it if needed.
  func nextChunk() async throws -> Data? {
    switch state.withVisibleLock({ $0.takeChunk() }) {
    case .chunk(let data): return data
    case .end: return nil
    case .failure(let error): throw error
    case .wait: break
    }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: ChunkContinuation) in
        let taken = state.withVisibleLock { state -> State.Take in
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

  // MARK: - Internals

  func fail(with error: any Error) {
    let effects = state.withVisibleLock { state -> Effects in
      guard state.outcome == nil else { return Effects() }
      return state.terminate(with: error)
    }
    perform(effects)
  }

  func streamBody(length: Int64?) -> HTTPBody {
    HTTPBody(TransferBody(transfer: self), length: length)
  }

  func launch(_ hop: Hop) {
    // Stopped while waiting for the worker: no task to make.
    if state.withVisibleLock({ $0.outcome != nil }) { return }
    if options.lifecycle?.isClosed == true {
      fail(
        with: TransportFailure.shutDown(method: method, url: url, client: "URLSessionHTTPClient"))
      return
    }
    let request = hop.urlRequest(
      timeoutInterval: options.foundationTimeout,
      storedCookies: options.cookies?.cookieValue(for: hop.url))
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
    // A shutdown that began after the check above failed the transfers registered by then, not
    // this one (launched on the caller's thread, not the worker's): it fails itself.
    if options.lifecycle?.isClosed == true {
      fail(
        with: TransportFailure.shutDown(method: method, url: url, client: "URLSessionHTTPClient"))
    }
    let live = state.withVisibleLock { state -> Bool in
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

  func perform(_ effects: Effects) {
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

  func removeTemporaryBodyFile() {
    if let temporaryBodyFile {
      try? FileManager.default.removeItem(at: temporaryBodyFile)
    }
  }
}
