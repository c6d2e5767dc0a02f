import EndpointKernel
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ``EndpointCore/HTTPClient`` on URLSession that behaves the same on Linux and Apple platforms.
///
/// It owns one long-lived `URLSession` whose delegate routes every callback to the request it
/// belongs to, and builds its own behaviour on those callbacks instead of Foundation's async
/// methods:
/// - cancelling the calling task stops the transfer and throws `CancellationError`;
/// - an idle timeout and a total deadline with sub-second precision
///   (``EndpointCore/TransportFailure/Kind/idleTimeout``,
///   ``EndpointCore/TransportFailure/Kind/deadlineExceeded``);
/// - the SDK's redirect policy (307/308 keep method and body, credentials stay on their origin);
/// - no proxy from the environment unless ``Configuration/allowsEnvironmentProxy`` is set;
/// - a response whose framing is ambiguous is an error, as on the curl client;
/// - a 401 with `WWW-Authenticate` is returned at once, never waited on;
/// - `Content-Length`, `Transfer-Encoding`, `Host` and `Connection` are never taken from the
///   request's fields; a maximum response size, counted in decoded bytes;
/// - compressed bodies are decoded by URLSession itself: on Linux, inside its libcurl, which
///   decodes every coding it knows (offered or not) and fails one it does not; a body cut short
///   comes back shorter, as a success (see <doc:Transport>);
/// - timings and byte counts per request (``EndpointCore/TransferMetrics``), upload and download progress.
///
/// ```swift
/// let client = URLSessionHTTPClient()
/// let user = try await client.call(User.with(id: 42))
///
/// // The head first, then the body as it arrives:
/// let (response, body) = try await client.send(request)
/// for try await line in body.lines { print(line) }
/// ```
///
/// Create one client and keep it: each client has its own session and connection pool.
public final class URLSessionHTTPClient: TransferPerforming, Sendable {
  /// The configuration the client was made with.
  public let configuration: Configuration

  let session: URLSession
  let router: TaskRouter
  /// Makes and resumes the session's tasks, off the cooperative pool.
  let worker = SessionWorker(name: "Endpoint.URLSessionHTTPClient.worker")
  /// Cancels the session's tasks and answers challenges, off the pool and apart from `worker`.
  let canceller = SessionWorker(name: "Endpoint.URLSessionHTTPClient.canceller")
  let timeouts = TimeoutScheduler()
  /// Stores response cookies when URLSession does not (see ``CookieJar``).
  let cookies: CookieJar?
  /// Closed by ``shutdown()``.
  let lifecycle = ClientLifecycle()

  /// Creates a client with its own session.
  ///
  /// - Parameter configuration: timeouts, limits, redirect policy and the session
  ///   configuration; see ``Configuration``.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    router = TaskRouter(worker: canceller, pinnedPublicKeys: configuration.pinnedPublicKeys)
    #if canImport(FoundationNetworking)
      // Callbacks run where URLSession delivers them, in order, with no hop per callback.
      let queue: OperationQueue = InlineDelegateQueue()
    #else
      let queue = OperationQueue()
      queue.name = "Endpoint.URLSessionHTTPClient"
      // One serial queue: callbacks of a task arrive in order and the state machine never races
      // with itself on the delegate side.
      queue.maxConcurrentOperationCount = 1
    #endif
    let sessionConfiguration = configuration.resolvedSessionConfiguration()
    cookies = CookieJar.takingOver(sessionConfiguration)
    session = URLSession(
      configuration: sessionConfiguration,
      delegate: router,
      delegateQueue: queue
    )
  }

  deinit {
    // Lets requests in flight finish, then releases the delegate; once the worker has made the
    // tasks already asked of it: a task made on an invalidated session ends the process.
    let session = session
    worker.stop(then: { session.finishTasksAndInvalidate() })
    canceller.stop()
  }

  /// Sends a request; returns the response head as soon as it arrives and the body as it comes.
  ///
  /// Bodies declared at most ``Configuration/inlineBodyLimit`` bytes arrive whole, in memory.
  /// A status that is not 2xx is returned like any other.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled;
  ///   ``EndpointCore/InvalidRequest`` (`.unsupported`) for a request URLSession cannot send as
  ///   it is; otherwise a ``EndpointCore/TransportFailure``, of the same kind the curl client
  ///   throws for the same failure: ``EndpointCore/TransportFailure/Kind/idleTimeout``,
  ///   ``EndpointCore/TransportFailure/Kind/deadlineExceeded``, a failed connection
  ///   (``EndpointCore/TransportFailure/Kind/cannotConnect``,
  ///   ``EndpointCore/TransportFailure/Kind/tls`` and the like, the `URLError` in
  ///   ``EndpointCore/TransportFailure/underlyingError``),
  ///   ``EndpointCore/TransportFailure/Kind/tooManyRedirects``,
  ///   ``EndpointCore/TransportFailure/Kind/redirectBodyNotReplayable``,
  ///   ``EndpointCore/TransportFailure/Kind/responseTooLarge``,
  ///   ``EndpointCore/TransportFailure/Kind/bodyLengthMismatch`` for a streamed body that misses
  ///   its declared length, ``EndpointCore/TransportFailure/Kind/malformedResponse`` for a
  ///   response that is not valid HTTP (an invalid `Content-Length` or an unrequested protocol
  ///   switch included), ``EndpointCore/TransportFailure/Kind/shutDown`` once ``shutdown()`` was
  ///   called.
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    try await perform(request, mode: .stream, progress: .none)
  }

  package func perform(
    _ request: HTTPRequest, mode: TransferMode, progress: TransferProgressHandlers
  ) async throws -> (HTTPResponse, HTTPBody) {
    if lifecycle.isClosed {
      throw TransportFailure.shutDown(
        method: request.method, url: request.url, client: "URLSessionHTTPClient")
    }
    try request.checkSendable()
    if let refusal = configuration.unsupportedServerOption(for: request) { throw refusal }
    let body: PreparedBody
    if request.body == nil {
      body = PreparedBody.none
    } else {
      body = try await PreparedBody(request)
    }
    let hop = Hop(
      method: request.method,
      url: request.url,
      headerFields: request.headerFields,
      body: body.outgoing,
      bodyIsReplayable: body.isReplayable
    )
    if let reason = hop.unsupportedReason()
      ?? EnvironmentProxy.refusal(for: hop.url, allowed: configuration.allowsEnvironmentProxy)
    {
      if let file = body.temporaryFile { try? FileManager.default.removeItem(at: file) }
      throw InvalidRequest.unsupported(method: request.method, url: request.url, reason: reason)
    }
    let shared = TransferOptions(
      for: request,
      clientIdleTimeout: configuration.idleTimeout,
      clientDeadline: configuration.deadline,
      clientRedirectPolicy: configuration.redirectPolicy,
      clientMaximumResponseSize: configuration.maximumResponseSize,
      bodyBufferLimit: configuration.bodyBufferLimit,
      inlineBodyLimit: configuration.inlineBodyLimit,
      metricsObserver: configuration.metricsObserver,
      uploadProgress: progress.upload,
      downloadProgress: progress.download
    )
    let options = SessionTransferOptions(
      shared: shared,
      foundationTimeout: Configuration.foundationTimeout(for: shared.idleTimeout),
      cookies: cookies,
      lifecycle: lifecycle,
      connectTimeout: configuration.connectTimeout,
      allowsEnvironmentProxy: configuration.allowsEnvironmentProxy
    )
    let transfer = Transfer(
      hop: hop,
      options: options,
      mode: mode,
      session: session,
      router: router,
      worker: worker,
      canceller: canceller,
      timeouts: timeouts,
      temporaryBodyFile: body.temporaryFile
    )
    let (head, responseBody) = try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        transfer.start(continuation)
      }
    } onCancel: {
      transfer.cancel()
    }
    return (head.converted, responseBody)
  }
}

extension PreparedBody {
  static let none = PreparedBody(outgoing: .none, isReplayable: true, temporaryFile: nil)

  init(outgoing: OutgoingBody, isReplayable: Bool, temporaryFile: URL?) {
    self.outgoing = outgoing
    self.isReplayable = isReplayable
    self.temporaryFile = temporaryFile
  }
}

extension URLSessionHTTPClient {
  /// How many URLSession tasks the client is tracking (for tests of clean-up).
  var transfersInFlight: Int { router.count }

  /// How many transfers the client's timeout scheduler watches (for tests of clean-up).
  var transfersWatched: Int { timeouts.count }
}
