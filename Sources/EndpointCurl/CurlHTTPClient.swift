import EndpointKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An ``EndpointCore/HTTPClient`` on libcurl's multi interface, for Linux servers.
///
/// One thread per client owns libcurl's multi handle and every transfer: requests reach it
/// through a locked queue, libcurl's sockets are watched with epoll, and responses resume their
/// callers straight from that thread. Connections are kept alive and reused, HTTP/2 is used
/// when a server offers it, and easy handles are recycled, so a request costs a fraction of what
/// it costs through URLSession on Linux.
///
/// It behaves like EndpointTransport's ``EndpointTransport/URLSessionHTTPClient``:
/// - cancelling the calling task stops the transfer and throws `CancellationError`;
/// - an idle timeout and a total deadline to the millisecond
///   (``EndpointCore/TransportFailure/Kind/idleTimeout``,
///   ``EndpointCore/TransportFailure/Kind/deadlineExceeded``);
/// - the SDK's redirect policy (307/308 keep method and body, credentials stay on their origin,
///   a limit);
/// - `Content-Length`, `Transfer-Encoding`, `Host` and `Connection` are never taken from the
///   request's fields; a maximum response size, counted in decoded bytes;
/// - content codings: unless the request sets its own `Accept-Encoding`, the client offers
///   those the loaded libcurl decodes (`gzip, deflate`, then `br` and `zstd` where libcurl was
///   built with them) and decodes them itself, completely or not at all: several gzip members
///   decode to all of their data, and a body cut short, bytes after the end of its stream that
///   start no other gzip member or zstd frame, a corrupt body or more than five stacked codings
///   fail with ``EndpointCore/TransportFailure/Kind/malformedResponse``. A coding the client
///   did not offer (a server may send one anyway, or the request set its own
///   `Accept-Encoding`) is not decoded: the body comes as sent, its `Content-Encoding` field
///   intact. Decoded or not, `Content-Encoding` stays in the response's fields, as URLSession
///   leaves it;
/// - a truncated body fails with a ``EndpointCore/TransportFailure`` of kind
///   ``EndpointCore/TransportFailure/Kind/connectionLost``, conflicting `Content-Length` fields
///   or a response that is not HTTP with one of kind
///   ``EndpointCore/TransportFailure/Kind/malformedResponse``, as on the URLSession client;
/// - timings per request (``EndpointCore/TransferMetrics``), upload and download progress.
///
/// Streamed bodies have real backpressure both ways: when the reader of a response falls
/// ``Configuration/streamBufferSize`` bytes behind, the transfer pauses until it catches up;
/// a streamed request body is read from its stream only as fast as it is sent.
///
/// ```swift
/// let client = try CurlHTTPClient()
/// let user = try await client.call(User.with(id: 42))
///
/// // The head first, then the body as it arrives:
/// let (response, body) = try await client.send(request)
/// for try await chunk in body { consume(chunk) }
/// ```
///
/// libcurl (`libcurl.so.4`, 7.68 or newer) is opened when the first client is made; building
/// needs no curl headers. On Apple platforms the module compiles but ``init(configuration:)``
/// throws a ``EndpointCore/TransportFailure`` of kind
/// ``EndpointCore/TransportFailure/Kind/libraryUnavailable``: use
/// ``EndpointTransport/URLSessionHTTPClient`` there.
///
/// Create one client and keep it: each client has its own thread and connection pool. Call
/// ``shutdown()`` to stop it; a client that is released stops by itself once its last request
/// is done.
public final class CurlHTTPClient: TransferPerforming, Sendable {
  /// The configuration the client was made with.
  public let configuration: Configuration

  let loop: CurlLoop

  /// Creates a client and starts its loop thread.
  ///
  /// - Parameter configuration: timeouts, limits, redirect policy, TLS and proxy; see
  ///   ``Configuration``.
  /// - Throws: a ``EndpointCore/TransportFailure`` of kind
  ///   ``EndpointCore/TransportFailure/Kind/libraryUnavailable`` when libcurl is missing or too
  ///   old, the platform is not Linux, or the loop cannot be set up (no file descriptors left);
  ///   ``EndpointCore/InvalidRequest`` (`.configuration`) for a configuration no request could
  ///   work with.
  public init(configuration: Configuration = Configuration()) throws {
    if let unavailable = CurlLibrary.unavailable { throw unavailable }
    try configuration.validateServerOptions()
    self.configuration = configuration
    let settings = CurlLoop.Settings(
      tls: configuration.tls,
      proxy: configuration.proxy,
      connectTimeout: configuration.connectTimeout,
      unixSocketPath: configuration.unixSocketPath,
      storesCookies: configuration.storesCookies,
      maximumConnectionsPerHost: configuration.maximumConnectionsPerHost,
      maximumIdleConnections: configuration.maximumIdleConnections,
      handlePoolLimit: max(64, configuration.maximumIdleConnections)
    )
    do {
      loop = try CurlLoop(settings: settings)
    } catch {
      throw CurlLibrary.unavailable(
        libraryName: CurlLibrary.defaultName,
        reason: "the client's loop could not start: \(error)"
      )
    }
  }

  deinit {
    // Requests still running (a body being read) finish; then the loop stops by itself.
    loop.submit(.release)
  }

  /// The version of the libcurl the process loaded, such as `7.88.1`.
  public var libcurlVersion: String { CurlLibrary.version }

  /// Sends a request; returns the response head as soon as it arrives and the body as it comes.
  ///
  /// Bodies declared at most ``Configuration/inlineBodyLimit`` bytes arrive whole, in memory.
  /// A status that is not 2xx is returned like any other.
  ///
  /// A streamed request body (made from an `AsyncSequence`) is sent as it is read, with
  /// backpressure: the stream is asked for its next chunk only while fewer than
  /// ``Configuration/streamBufferSize`` bytes wait to be sent, so a body of any size (a
  /// multi-gigabyte export, a pipe) uses that much memory. With a declared length it is sent
  /// with `Content-Length`, and must give exactly that many bytes; without one it is sent in
  /// chunks (`Transfer-Encoding: chunked` over HTTP/1.1). A stream that throws fails the request
  /// with its error.
  ///
  /// ```swift
  /// let export = HTTPBody(rowsAsCSV)   // an AsyncSequence of Data, read once
  /// let request = HTTPRequest(method: .put, url: url, body: export)
  /// let (response, _) = try await client.send(request)
  /// ```
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled; the error a streamed
  ///   request body throws; ``EndpointCore/InvalidRequest`` (`.url`) for a URL that is not
  ///   `http` or `https` (or a redirect to one), ``EndpointCore/InvalidRequest`` (`.method`) for
  ///   a method that is not an RFC 9110 token (checked before a byte is sent, however the
  ///   request was made); otherwise a ``EndpointCore/TransportFailure``, of the same kind the
  ///   URLSession client throws for the same failure:
  ///   ``EndpointCore/TransportFailure/Kind/idleTimeout``,
  ///   ``EndpointCore/TransportFailure/Kind/deadlineExceeded``, a failed connection
  ///   (``EndpointCore/TransportFailure/Kind/cannotConnect``,
  ///   ``EndpointCore/TransportFailure/Kind/tls`` and the like, libcurl's `CURLcode` in
  ///   ``EndpointCore/TransportFailure/code``),
  ///   ``EndpointCore/TransportFailure/Kind/tooManyRedirects``,
  ///   ``EndpointCore/TransportFailure/Kind/redirectBodyNotReplayable`` (a 307 or 308 would send
  ///   a streamed body again), ``EndpointCore/TransportFailure/Kind/responseTooLarge``,
  ///   ``EndpointCore/TransportFailure/Kind/bodyLengthMismatch``,
  ///   ``EndpointCore/TransportFailure/Kind/malformedResponse``,
  ///   ``EndpointCore/TransportFailure/Kind/shutDown`` once ``shutdown()`` was called.
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    try await perform(request, mode: .stream, progress: .none)
  }

  /// Stops the client: requests in flight fail with a ``EndpointCore/TransportFailure`` of kind
  /// ``EndpointCore/TransportFailure/Kind/shutDown``, so do requests sent later; the loop thread
  /// ends and every libcurl handle is freed. Returns when that is done.
  ///
  /// ```swift
  /// let client = try CurlHTTPClient()
  /// defer { Task { await client.shutdown() } }
  /// ```
  public func shutdown() async {
    await loop.shutdown()
  }

  /// The client's loop thread as a task executor: code that runs with it as its preference
  /// sends, receives and decodes on the thread that does the libcurl work, with no hop from that
  /// thread back to Swift's thread pool when a response arrives.
  ///
  /// ```swift
  /// let client = try CurlHTTPClient()
  /// let user = try await withTaskExecutorPreference(client.executor) {
  ///   try await client.call(User.with(id: 42))
  /// }
  /// ```
  ///
  /// Use it for short work per response (decoding, a few checks): every job that runs there
  /// delays the transfers of the whole client, so blocking work (file I/O, a lock held long, a
  /// CPU-heavy transform) stalls every request and belongs on the default executor. Once the
  /// client is shut down or its loop has ended, jobs run on the global concurrent executor.
  public var executor: any TaskExecutor { loop }

  package func perform(
    _ request: HTTPRequest, mode: TransferMode, progress: TransferProgressHandlers
  ) async throws -> (HTTPResponse, HTTPBody) {
    try request.checkSendable()
    var body = UploadBody.none
    var replayable = true
    var upload: StreamedUpload?
    if let requestBody = request.body {
      replayable = requestBody.isReplayable
      if let data = requestBody.data {
        body = data.isEmpty ? .none : .data(data)
      } else if let fileURL = requestBody.fileURL {
        let length = requestBody.length ?? 0
        // A file read as empty is sent without a body, so no read can see it grew: look now.
        if length == 0, let size = (try? HTTPBody(contentsOf: fileURL))?.length, size > 0 {
          throw TransportFailure.bodyLengthMismatch(
            method: request.method, url: request.url, declared: 0, produced: size,
            fileURL: fileURL)
        }
        body = .file(fileURL, length: length)
      } else if requestBody.length == 0 {
        // Declared empty: sent without a body, once the stream has shown it is.
        for try await chunk in requestBody where !chunk.isEmpty {
          throw TransportFailure.bodyLengthMismatch(
            method: request.method,
            url: request.url,
            declared: 0,
            produced: Int64(chunk.count)
          )
        }
      } else {
        // Pulled as it is sent, through a buffer of the stream buffer's size.
        let stream = StreamedUpload(
          declaredLength: requestBody.length,
          capacity: configuration.streamBufferSize,
          method: request.method,
          url: request.url,
          loop: loop
        )
        upload = stream
        body = .stream(stream)
      }
    }
    let options = TransferOptions(
      for: request,
      clientIdleTimeout: configuration.idleTimeout,
      clientDeadline: configuration.deadline,
      clientRedirectPolicy: configuration.redirectPolicy,
      clientMaximumResponseSize: configuration.maximumResponseSize,
      bodyBufferLimit: configuration.streamBufferSize,
      inlineBodyLimit: configuration.inlineBodyLimit,
      metricsObserver: configuration.metricsObserver,
      uploadProgress: progress.upload,
      downloadProgress: progress.download
    )
    var hop = Hop(
      method: request.method,
      url: request.url,
      headerFields: request.headerFields,
      body: body,
      bodyIsReplayable: replayable
    )
    hop.trailerFields = request.body?.requestTrailers
    let transfer = CurlTransfer(hop: hop, options: options, mode: mode, loop: loop)
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        // The stream is read from before the transfer begins: a server may answer, and the
        // exchange end, before this thread runs again, and the end must find a reader to
        // cancel (an `AsyncStream` then runs its `onTermination`).
        if let upload, let requestBody = request.body {
          upload.start(reading: requestBody, for: transfer)
        }
        transfer.begin(continuation)
      }
    } onCancel: {
      transfer.cancel()
    }
  }
}

extension CurlHTTPClient {
  /// Easy handles that exist, in use or pooled (for tests of clean-up).
  var liveEasyHandles: Int { loop.liveHandles.load(ordering: .relaxed) }

  /// Easy handles waiting in the pool (for tests of clean-up).
  var pooledEasyHandles: Int { loop.pooledHandles.load(ordering: .relaxed) }

  /// Bytes of streamed bodies received and not yet read (for tests of backpressure).
  var bytesWaitingForReaders: Int { loop.bytesWaitingForReaders.load(ordering: .relaxed) }

  /// Bytes of streamed request bodies read from their streams and not yet handed to libcurl
  /// (for tests of upload backpressure).
  var bytesWaitingToBeSent: Int { loop.bytesWaitingToBeSent.load(ordering: .relaxed) }

  /// Changes the loop made to its epoll set so far (for tests of keeping sockets registered).
  var pollerControlCalls: Int { loop.pollerControlCalls }

  /// The times the loop waited for events so far (for tests that it does not spin).
  var pollerWaits: Int { loop.pollerWaits }
}
