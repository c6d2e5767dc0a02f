import EndpointKernel
import EndpointPrimitives
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Any `URLSession`, `URLSession.shared` included, as an ``EndpointCore/HTTPClient``.
///
/// Call an endpoint on the session you already have:
///
/// ```swift
/// let user = try await URLSession.shared.call(User.with(id: 42))
/// ```
///
/// It goes through the SDK's safe path as far as a session without the SDK's delegate allows:
/// completion-handler tasks (never Foundation's async methods, whose cancellation can deadlock
/// on Linux), cancellation that throws `CancellationError`,
/// ``EndpointCore/HTTPRequest/timeout`` enforced by the SDK's own timer
/// (``EndpointCore/TransportFailure/Kind/deadlineExceeded``), framing fields never taken from the
/// request,
/// and the same errors as ``URLSessionHTTPClient``.
///
/// What only ``URLSessionHTTPClient`` adds, because it needs the session's delegate: the
/// response head before the body (here the body is collected first), an idle timeout,
/// the SDK's redirect policy (here URLSession's own: on Linux a 307/308 re-sends an empty body
/// and credentials follow a redirect to any origin), a 401 with `WWW-Authenticate` returned at
/// once (on Linux before Swift 6.3.2 URLSession waits forever for a credential: set a timeout),
/// a maximum response size, progress and metrics. For the same reason a request whose
/// ``EndpointCore/HTTPRequest/options`` ask for a redirect policy, an idle timeout or a size limit
/// is refused with ``EndpointCore/InvalidRequest`` (`.unsupported`) rather than sent without them.
/// A session with a URL cache (such as `URLSession.shared`) can crash on Linux when a cancellation
/// races a completion; the client's session has none.
extension URLSession: HTTPClient {
  /// Sends a request with a completion-handler task and returns the response with its whole
  /// body in memory.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled; a
  ///   ``EndpointCore/TransportFailure`` of kind
  ///   ``EndpointCore/TransportFailure/Kind/deadlineExceeded`` past
  ///   ``EndpointCore/HTTPRequest/timeout``, or of the kind of a failed connection (such as
  ///   ``EndpointCore/TransportFailure/Kind/cannotConnect``, with the `URLError` code in
  ///   ``EndpointCore/TransportFailure/code``); ``EndpointCore/InvalidRequest`` (`.unsupported`).
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    try request.checkSendable()
    if let reason = Self.unsupportedOptionsReason(request.options) {
      throw InvalidRequest.unsupported(method: request.method, url: request.url, reason: reason)
    }
    let body = request.body == nil ? PreparedBody.none : try await PreparedBody(request)
    let hop = Hop(
      method: request.method,
      url: request.url,
      headerFields: request.headerFields,
      body: body.outgoing,
      bodyIsReplayable: body.isReplayable
    )
    if let reason = hop.unsupportedReason() {
      if let file = body.temporaryFile { try? FileManager.default.removeItem(at: file) }
      throw InvalidRequest.unsupported(method: request.method, url: request.url, reason: reason)
    }
    let deadline = deadlineWithinScope(request.timeout)
    let call = CompletionCall(
      method: request.method,
      url: request.url,
      fields: request.headerFields,
      deadline: deadline
    )
    defer {
      if let file = body.temporaryFile { try? FileManager.default.removeItem(at: file) }
    }
    var urlRequest = hop.urlRequest(timeoutInterval: configuration.timeoutIntervalForRequest)
    if let timeout = deadline {
      // URLSession's own timer must not fire first: it rounds down to whole seconds on Linux.
      urlRequest.timeoutInterval = max(
        urlRequest.timeoutInterval,
        (timeout.seconds + 1).rounded(.up) + 1
      )
    }
    let outgoing = urlRequest
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = {
          data, response, error in
          call.complete(data: data, response: response, error: error)
        }
        // Making and resuming a task wait on the session's work queue: never on the
        // cooperative pool (see SessionWorker).
        SessionWorker.shared.submit {
          let task: URLSessionTask
          switch hop.body {
          case .none: task = self.dataTask(with: outgoing, completionHandler: handler)
          case .data(let data):
            task = self.uploadTask(with: outgoing, from: data, completionHandler: handler)
          case .file(let fileURL):
            task = self.uploadTask(with: outgoing, fromFile: fileURL, completionHandler: handler)
          }
          call.start(task, continuation: continuation)
        }
      }
    } onCancel: {
      call.cancel()
    }
  }
}

extension URLSession {
  /// Why a session without the SDK's delegate cannot apply `options`, or `nil` when it
  /// applies them all (none set, or only a lifted size limit, which is what it does anyway).
  static func unsupportedOptionsReason(_ options: RequestOptions) -> String? {
    var asked: [String] = []
    if options.redirectPolicy != nil { asked.append("a redirect policy") }
    if options.idleTimeout != nil { asked.append("an idle timeout") }
    if case .limited? = options.maximumResponseSize { asked.append("a maximum response size") }
    guard !asked.isEmpty else { return nil }
    return "its options ask for \(asked.joined(separator: ", ")), which a URLSession used "
      + "directly cannot apply; send it with URLSessionHTTPClient or CurlHTTPClient"
  }
}

/// One completion-handler request: whichever comes first of the completion, the calling task's
/// cancellation and the deadline resumes the caller, exactly once.
private final class CompletionCall: TimeoutTarget {
  private struct State {
    var continuation: HeadContinuation?
    var task: URLSessionTask?
    var finished = false
    var cancelled = false
  }

  private let method: HTTPMethod
  private let url: URL
  private let fields: HTTPFields
  private let deadline: Duration?
  private let startInstant = ContinuousClock.now
  private let state = Mutex(State())

  init(method: HTTPMethod, url: URL, fields: HTTPFields, deadline: Duration?) {
    self.method = method
    self.url = url
    self.fields = fields
    self.deadline = deadline
  }

  func start(_ task: URLSessionTask, continuation: HeadContinuation) {
    let live = state.withVisibleLock { state -> Bool in
      guard !state.finished else { return false }
      state.continuation = continuation
      state.task = task
      return true
    }
    guard live else {
      // Cancelled before the task started: complete it so the session forgets it.
      task.cancel()
      continuation.resume(throwing: CancellationError())
      return
    }
    if let deadline {
      TimeoutScheduler.shared.add(self, checkAt: startInstant + deadline)
      // Finished while being added: nothing will remove it later.
      if state.withVisibleLock({ $0.finished }) { TimeoutScheduler.shared.remove(self) }
    }
    task.resume()
  }

  func cancel() {
    finish(with: .failure(CancellationError()), cancelTask: true, cancelled: true)
  }

  func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
    let result: Result<(HTTPResponse, HTTPBody), any Error>
    if let error {
      let cancelled = state.withVisibleLock { $0.cancelled }
      let urlError = Transfer.urlError(from: error)
      switch urlError?.code {
      case .cancelled? where cancelled: result = .failure(CancellationError())
      case .unsupportedURL? where Transfer.isHTTP(url):
        let reason = "the status line cannot be read"
        result = .failure(
          TransportFailure.malformedResponse(method: method, url: url, reason: reason))
      case let code?:
        result = .failure(
          TransportFailure.urlSession(method: method, url: url, error: urlError ?? URLError(code))
        )
      case nil: result = .failure(error)
      }
    } else if let response {
      let head = FoundationResponseHead(response)
      if let refusal = head.refusal(method: method, url: response.url ?? url, request: fields) {
        result = .failure(refusal)
      } else {
        result = .success((head.converted, HTTPBody(data ?? Data())))
      }
    } else {
      result = .failure(
        TransportFailure.malformedResponse(method: method, url: url, reason: "no response head"))
    }
    finish(with: result, cancelTask: false, cancelled: false)
  }

  func checkTimeouts(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    guard let deadline, !state.withVisibleLock({ $0.finished }) else { return nil }
    let elapsed = now - startInstant
    guard elapsed >= deadline else { return startInstant + deadline }
    let error = TransportFailure.deadlineExceeded(
      method: method, url: url, limit: deadline, elapsed: elapsed)
    finish(with: .failure(error), cancelTask: true, cancelled: false)
    return nil
  }

  private func finish(
    with result: Result<(HTTPResponse, HTTPBody), any Error>,
    cancelTask: Bool,
    cancelled: Bool
  ) {
    let (continuation, task, live) = state.withVisibleLock {
      state -> (HeadContinuation?, URLSessionTask?, Bool) in
      guard !state.finished else { return (nil, nil, false) }
      state.finished = true
      state.cancelled = cancelled
      defer { state.continuation = nil }
      return (state.continuation, state.task, true)
    }
    if live, deadline != nil { TimeoutScheduler.shared.remove(self) }
    continuation?.resume(with: result)
    if cancelTask, let task {
      // Off the caller's thread: see the deadlock note in Transfer.
      SessionWorker.shared.submit { task.cancel() }
    }
  }
}
