internal import CCurl
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

typealias HeadContinuation = UnsafeContinuation<(HTTPResponse, HTTPBody), any Error>
typealias ChunkContinuation = UnsafeContinuation<Data?, any Error>

/// The limits and callbacks of one transfer.
struct TransferOptions: Sendable {
  var idleTimeout: Duration?
  var deadline: Duration?
  var redirectLimit: Int?
  /// Fields dropped across origins beside the SDK's credential fields.
  var credentialFieldNames: Set<String> = []
  var maximumResponseSize: Int?
  var streamBufferSize: Int
  var inlineBodyLimit: Int
  var metricsObserver: (@Sendable (TransferMetrics) -> Void)?
  var uploadProgress: (@Sendable (TransferProgress) -> Void)?
  var downloadProgress: (@Sendable (TransferProgress) -> Void)?
}

/// One exchange from start to end, across redirects: the state machine behind
/// ``CurlHTTPClient``.
///
/// libcurl's callbacks, redirects, timeouts and the end of the transfer run on the loop thread
/// and use the loop-only properties without a lock. What the caller's side also touches (the
/// continuations, the queue of unread chunks, the outcome) sits in `shared`, behind a lock;
/// continuations are resumed after the lock is released, from whichever thread settled them.
///
/// `@unchecked Sendable`: the loop-only properties are never touched off the loop thread.
final class CurlTransfer: @unchecked Sendable {
  enum Outcome {
    case finished
    case failed(any Error)
  }

  /// What happens to the body of the current response.
  enum Delivery {
    case pending
    /// A redirect that is followed: the body is dropped.
    case redirect
    /// Collected in memory, handed over with the head at the end.
    case inline
    /// Handed to the caller's ``CurlResponseBody`` as it arrives.
    case streaming
    case file(DownloadFile)
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
    var chunks: [Data] = []
    var chunkIndex = 0
    var bufferedBytes = 0
    var outcome: Outcome?
    /// The loop paused the transfer because `bufferedBytes` reached the stream buffer size.
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
  private let shared = Mutex(Shared())

  // Loop thread only.
  var hop: Hop
  var easy: EasyHandle?
  var activeIndex = -1
  var retired = false
  var lastActivity: ContinuousClock.Instant
  private var headerList: OpaquePointer?
  private var parser = HeadParser()
  private var response: HTTPResponse?
  /// Bytes of head lines received for this hop (interim heads included), and of trailer lines
  /// with their count: a server that never ends its head or trailer section is stopped there.
  var headBytes = 0
  private var trailerBytes = 0
  private var trailerFields = 0
  /// The final response's trailer fields, for the caller's body.
  let trailers = TrailerBox()
  /// The rest of a long redirect body was left unread to follow the redirect at once.
  private var abandonedRedirectBody = false
  private var delivery = Delivery.pending
  private var inline = Data()
  private var uploadOffset: Int64 = 0
  private var uploadDescriptor: Int32 = -1
  private var responseStart: ContinuousClock.Instant?
  private var firstBodyByte: ContinuousClock.Instant?
  private var expectedLength: Int64?
  private var hopBytesReceived: Int64 = 0
  /// Whether this hop's response body is decoded by the client (see ``ContentDecoder``): the
  /// caller set no `Accept-Encoding` and zlib loaded.
  private var decodesContent = false
  /// The decoder for this hop's body, once its head named a coding it decodes.
  private var contentDecoder: ContentDecoder?
  private var contentDecoderResolved = false
  private var bytesReceived: Int64 = 0
  private var bytesSent: Int64 = 0
  private var chain: [URL]
  private var pendingHead: (HeadContinuation, Result<(HTTPResponse, HTTPBody), any Error>)?
  private var pendingWaiter: (ChunkContinuation, Result<Data?, any Error>)?

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

  var isLive: Bool { shared.withVisibleLock(for: self) { $0.isOpen } }

  // MARK: - Caller side

  /// Queues the transfer on the loop; `continuation` receives the response head and body.
  func begin(_ continuation: HeadContinuation) {
    let failure: (any Error)? = shared.withVisibleLock(for: self) { shared in
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
    let (head, waiter, dropped, settled) = shared.withVisibleLock(for: self) {
      shared -> (HeadContinuation?, ChunkContinuation?, Int, Bool) in
      guard shared.isOpen else { return (nil, nil, 0, false) }
      shared.outcome = .failed(error)
      let taken = (holdingHead ? nil : shared.head, shared.waiter, shared.bufferedBytes)
      if !holdingHead { shared.head = nil }
      shared.waiter = nil
      shared.chunks = []
      shared.chunkIndex = 0
      shared.bufferedBytes = 0
      return (taken.0, taken.1, taken.2, true)
    }
    if dropped > 0 { loop.bytesWaitingForReaders.subtract(dropped, ordering: .relaxed) }
    return (head, waiter, settled)
  }

  /// The next chunk of a streamed body, waiting for it if needed.
  func nextChunk() async throws -> Data? {
    let (taken, unpause) = shared.withVisibleLock(for: self) {
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
        let (taken, unpause) = shared.withVisibleLock(for: self) { shared in
          let result = shared.take(resumeBelow: resumeThreshold)
          if case .wait = result.0 { shared.waiter = continuation }
          return result
        }
        if unpause { loop.submit(.unpause(self)) }
        switch taken {
        case .chunk(let data):
          loop.bytesWaitingForReaders.subtract(data.count, ordering: .relaxed)
          continuation.resume(returning: data)
        case .end: continuation.resume(returning: nil)
        case .failure(let error): continuation.resume(throwing: error)
        case .wait: break
        }
      }
    } onCancel: {
      cancel()
    }
  }

  /// A paused transfer resumes once the unread bytes fall to half the stream buffer.
  private var resumeThreshold: Int { max(0, options.streamBufferSize / 2) }

  // MARK: - Loop side: setting up a request

  /// Sets the easy handle up for the current hop; returns the error that stops the transfer,
  /// if any.
  ///
  /// A handle keeps the options every request of the loop shares (its baseline) from one request
  /// to the next; only a request that set something else (a method, a body, its own
  /// `Accept-Encoding`) leaves it to be reset before the next one.
  func configure(_ handle: EasyHandle) -> (any Error)? {
    let easy = handle.pointer
    if handle.needsBaseline {
      ccurl_easy_reset(easy)
      applyBaseline(handle)
      handle.needsBaseline = false
    }
    handle.errorBuffer[0] = 0
    parser.reset()
    response = nil
    headBytes = 0
    trailerBytes = 0
    trailerFields = 0
    trailers.set(nil)
    abandonedRedirectBody = false
    delivery = .pending
    inline = Data()
    responseStart = nil
    firstBodyByte = nil
    expectedLength = nil
    hopBytesReceived = 0
    uploadOffset = 0
    contentDecoder = nil
    contentDecoderResolved = false
    decodesContent = ContentDecoder.isAvailable && !hop.headerFields.contains("Accept-Encoding")

    let context = Unmanaged.passUnretained(self).toOpaque()
    let urlCode = hop.url.absoluteString.withCString {
      ccurl_easy_setopt_string(easy, CCURLOPT_URL, $0)
    }
    guard urlCode == CCURLE_OK else {
      return InvalidURL(input: URLRedaction.redacted(hop.url), reason: handle.message(for: urlCode))
    }
    // Over https a request waits for a connection to the same host that is still being opened
    // to learn by ALPN whether it multiplexes, instead of opening one more: a burst to an
    // HTTP/2 server shares one connection. Not over http, where the wait would last until the
    // first response arrived (over http libcurl speaks HTTP/1.1 only).
    let waitsForMultiplexing: CLong = hop.url.scheme?.lowercased() == "https" ? 1 : 0
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_PIPEWAIT, waitsForMultiplexing)
    _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_HEADERDATA, context)
    _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_WRITEDATA, context)
    if options.redirectLimit != nil, !handle.cookieEngine {
      // The cookie engine carries cookies set along a redirect chain to its later requests;
      // the loop erases them when the exchange ends. Once on, it stays on (a reset keeps it).
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_COOKIEFILE, "")
      handle.cookieEngine = true
    }
    if hop.headerFields.contains("Accept-Encoding") {
      // A caller's own Accept-Encoding gets raw bytes: no decoding by libcurl.
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_ACCEPT_ENCODING, nil)
      handle.needsBaseline = true
    }
    if let failure = configureMethodAndBody(handle, context: context) { return failure }
    headerList = makeHeaderList()
    _ = ccurl_easy_setopt_slist(easy, CCURLOPT_HTTPHEADER, headerList)
    return nil
  }

  /// The options every request of the loop shares, on a handle fresh from `curl_easy_reset`.
  private func applyBaseline(_ handle: EasyHandle) {
    let easy = handle.pointer
    _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_PRIVATE, handle.context)
    _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_ERRORBUFFER, handle.errorBuffer)
    // Timeouts are the SDK's; libcurl must never touch signals from a multi-threaded program.
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_NOSIGNAL, 1)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_PROTOCOLS, CLong(CCURLPROTO_HTTP | CCURLPROTO_HTTPS))
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_HTTP_VERSION, CLong(CCURL_HTTP_VERSION_2TLS))
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_FOLLOWLOCATION, 0)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_TCP_NODELAY, 1)
    configureTLS(easy)
    configureProxy(easy)
    applyConnectionOptions(handle)
    // Bodies are decoded by the client when zlib loads (ContentDecoder); otherwise by libcurl,
    // with every decoder it was built with.
    if !ContentDecoder.isAvailable {
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_ACCEPT_ENCODING, "")
    }
    _ = ccurl_easy_setopt_data_callback(easy, CCURLOPT_HEADERFUNCTION) {
      buffer, size, count, context in
      guard let buffer, let context else { return 0 }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
      return transfer.receivedHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
    }
    _ = ccurl_easy_setopt_data_callback(easy, CCURLOPT_WRITEFUNCTION) {
      buffer, size, count, context in
      guard let buffer, let context else { return 0 }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
      return transfer.receivedBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
    }
    loop.watchSockets(of: handle)
  }

  private func configureTLS(_ easy: OpaquePointer) {
    let tls = loop.settings.tls
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_SSL_VERIFYPEER, 1)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_SSL_VERIFYHOST, 2)
    let version =
      switch tls.minimumVersion {
      case .tls12: CCURL_SSLVERSION_TLSv1_2
      case .tls13: CCURL_SSLVERSION_TLSv1_3
      }
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_SSLVERSION, CLong(version))
    if let path = tls.caBundlePath {
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_CAINFO, path)
    }
  }

  private func configureProxy(_ easy: OpaquePointer) {
    switch loop.settings.proxy.source {
    case .none:
      // An empty proxy turns off the proxy environment variables libcurl reads otherwise.
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_PROXY, "")
    case .environment:
      break
    case .explicit(let proxyURL, let bypassing):
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_PROXY, proxyURL.absoluteString)
      if !bypassing.isEmpty {
        _ = ccurl_easy_setopt_string(easy, CCURLOPT_NOPROXY, bypassing.joined(separator: ","))
      }
    }
  }

  /// Sets what differs from a plain `GET`, and then leaves the handle to be reset after the
  /// request.
  private func configureMethodAndBody(
    _ handle: EasyHandle,
    context: UnsafeMutableRawPointer
  ) -> (any Error)? {
    let easy = handle.pointer
    let length = hop.body.length
    if hop.method == .get, length == 0 { return nil }
    handle.needsBaseline = true
    if hop.method == .head {
      _ = ccurl_easy_setopt_long(easy, CCURLOPT_NOBODY, 1)
      return nil
    }
    if length == 0 {
      if hop.method == .post {
        _ = ccurl_easy_setopt_long(easy, CCURLOPT_POST, 1)
        _ = ccurl_easy_setopt_off_t(easy, CCURLOPT_POSTFIELDSIZE_LARGE, 0)
        _ = ccurl_easy_setopt_string(easy, CCURLOPT_CUSTOMREQUEST, nil)
      } else if hop.method != .get {
        _ = ccurl_easy_setopt_string(easy, CCURLOPT_CUSTOMREQUEST, hop.method.rawValue)
      }
      return nil
    }
    if case .file(let fileURL, _) = hop.body {
      uploadDescriptor = open(fileURL.path, O_RDONLY | O_CLOEXEC)
      guard uploadDescriptor >= 0 else {
        return FileBodyError(fileURL: fileURL, reason: String(cString: strerror(errno)))
      }
    }
    if CurlLibrary.spinsOnHTTP2Uploads, length.map({ $0 > CurlLibrary.http2InitialWindow }) ?? true
    {
      // libcurl before 8.0 polls in a busy loop while an HTTP/2 upload waits for the server's
      // flow-control window (curl issue 10618): tens of thousands of wake-ups for a few MiB.
      // A body that may not fit in the first window goes over HTTP/1.1 there instead.
      _ = ccurl_easy_setopt_long(easy, CCURLOPT_HTTP_VERSION, CLong(CCURL_HTTP_VERSION_1_1))
    }
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_POST, 1)
    // -1, an unknown length: libcurl sends the body in chunks (HTTP/1.1) as the stream gives it.
    _ = ccurl_easy_setopt_off_t(easy, CCURLOPT_POSTFIELDSIZE_LARGE, length ?? -1)
    if hop.method != .post {
      _ = ccurl_easy_setopt_string(easy, CCURLOPT_CUSTOMREQUEST, hop.method.rawValue)
    }
    _ = ccurl_easy_setopt_data_callback(easy, CCURLOPT_READFUNCTION) {
      buffer, size, count, context in
      guard let buffer, let context else { return Int(CCURL_READFUNC_ABORT) }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
      return transfer.readBody(into: UnsafeMutableRawPointer(buffer), capacity: size * count)
    }
    _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_READDATA, context)
    _ = ccurl_easy_setopt_seek_callback(easy, CCURLOPT_SEEKFUNCTION) { context, offset, origin in
      guard let context else { return CCURL_SEEKFUNC_FAIL }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
      return transfer.seekBody(to: offset, origin: origin)
    }
    _ = ccurl_easy_setopt_pointer(easy, CCURLOPT_SEEKDATA, context)
    configureRequestTrailers(easy, context: context)
    return nil
  }

  /// The request's fields as libcurl takes them, without framing fields, with an empty
  /// `Expect:` (libcurl would otherwise wait for `100 Continue` before bodies over 1 MiB).
  private func makeHeaderList() -> OpaquePointer? {
    var list: OpaquePointer?
    var hasExpect = false
    var hasContentType = false
    let acceptEncoding = decodesContent ? WireFields.defaultAcceptEncoding : nil
    WireFields.forEach(in: hop.headerFields, acceptEncoding: acceptEncoding) { name, value in
      if FieldName.equals(name, "expect") { hasExpect = true }
      if FieldName.equals(name, "content-type") { hasContentType = true }
      // "Name;" is libcurl's way to send a field with an empty value ("Name:" removes it).
      let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
      list = ccurl_slist_append(list, line)
    }
    if !hasExpect { list = ccurl_slist_append(list, "Expect:") }
    // libcurl labels every body it sends with POST as a form, an empty one too; a body
    // without a type goes without one, as the caller made it.
    if !hasContentType, hop.body.length != 0 || hop.method == .post {
      list = ccurl_slist_append(list, "Content-Type:")
    }
    // libcurl sends a length for POST itself; other methods get the same `Content-Length: 0`
    // from both clients.
    if hop.body.length == 0, hop.method != .post, WireFields.sendsZeroLength(for: hop.method) {
      list = ccurl_slist_append(list, "Content-Length: 0")
    }
    return list
  }

  /// Frees what the hop held; the easy handle stays as it is until reset.
  func endHop(on handle: EasyHandle) {
    if let headerList {
      ccurl_slist_free_all(headerList)
      self.headerList = nil
    }
    if uploadDescriptor >= 0 {
      close(uploadDescriptor)
      uploadDescriptor = -1
    }
    bytesSent += uploadOffset
    uploadOffset = 0
  }

  // MARK: - Loop side: callbacks

  private func receivedHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
    lastActivity = loop.now
    if response != nil {
      // After the final head, libcurl hands over the trailer section of a chunked body.
      trailerBytes += line.count
      trailerFields += 1
      if trailerBytes > Self.maximumTrailerBytes || trailerFields > Self.maximumTrailerFields {
        let detail =
          "the trailer section passed \(Self.maximumTrailerFields) fields or "
          + "\(Self.maximumTrailerBytes) bytes"
        failOnLoop(connectionFailure(.invalidResponse, code: 0, detail))
        return 0
      }
      trailers.add(line: line)
      return line.count
    }
    headBytes += line.count
    if headBytes > Self.maximumHeadBytes {
      let detail = "the response head passed \(Self.maximumHeadBytes) bytes"
      failOnLoop(connectionFailure(.invalidResponse, code: 0, detail))
      return 0
    }
    switch parser.consume(line) {
    case .incomplete: return line.count
    case .complete: return headReceived() ? line.count : 0
    }
  }

  /// The most bytes of head lines one hop may send, interim heads included (below libcurl's own
  /// 300 KiB, so the error names the SDK's limit).
  static let maximumHeadBytes = 256 << 10
  /// The most trailer fields, and bytes of them, after a chunked body.
  static let maximumTrailerFields = 100
  static let maximumTrailerBytes = 64 << 10
  /// The most bytes of a followed redirect's body read before it is left unread.
  static let redirectBodyLimit = 64 << 10

  /// The final head arrived; decides where the body goes. `false` stops the transfer.
  private func headReceived() -> Bool {
    guard let status = parser.status else {
      failOnLoop(connectionFailure(.invalidResponse, code: 0, "the response has no status line"))
      return false
    }
    let response = HTTPResponse(status: status, headerFields: parser.fields, url: hop.url)
    self.response = response
    responseStart = lastActivity
    if let upload, upload.responseHeadArrived() {
      // Resumed on the loop's next pass, after this callback returns.
      _ = loop.submit(.unpause(self))
    }
    if let detail = parser.invalidContentLength(of: response) {
      failOnLoop(connectionFailure(.invalidResponse, code: 0, detail))
      return false
    }
    if options.redirectLimit != nil, RedirectRule.isFollowed(status), parser.framing.hasLocation {
      delivery = .redirect
      return true
    }
    let declared = parser.declaredBodyLength(of: response, method: hop.method)
    expectedLength = declared
    if let limit = options.maximumResponseSize, let declared, declared > Int64(limit) {
      failOnLoop(ResponseTooLarge(limit: limit, received: declared))
      return false
    }
    switch mode {
    case .download(let destination, let accepted):
      guard accepted.contains(status) else {
        delivery = .errorBody
        return true
      }
      do {
        delivery = .file(try DownloadFile(destination: destination))
      } catch {
        failOnLoop(error)
        return false
      }
      return true
    case .stream:
      if let declared, declared <= Int64(options.inlineBodyLimit) {
        delivery = .inline
        inline.reserveCapacity(Int(declared))
        return true
      }
      startStreaming(length: declared)
      return true
    }
  }

  /// Hands the head to the caller with a body that streams from here on.
  private func startStreaming(length: Int64?) {
    delivery = .streaming
    guard let response else { return }
    let body = HTTPBody(CurlResponseBody(transfer: self), length: length, trailers: trailers)
    let head = shared.withVisibleLock(for: self) { shared -> HeadContinuation? in
      guard shared.isOpen else { return nil }
      defer { shared.head = nil }
      return shared.head
    }
    head?.resume(returning: (response, body))
  }

  private func receivedBody(_ bytes: UnsafeRawBufferPointer) -> Int {
    if decodesContent, let response, !isRedirectDelivery {
      if !contentDecoderResolved {
        contentDecoderResolved = true
        contentDecoder = ContentDecoder(
          contentEncoding: response.headerFields.values(for: "Content-Encoding"))
      }
      if let decoder = contentDecoder {
        return receivedEncodedBody(bytes, decoder: decoder, response: response)
      }
    }
    return deliverBody(bytes, mustTake: false)
  }

  /// Whether the hop's body is the response's (not a redirect's, not an error body's).
  private var endsWithBody: Bool {
    switch delivery {
    case .redirect, .errorBody: false
    case .pending, .inline, .streaming, .file: true
    }
  }

  private var isRedirectDelivery: Bool {
    if case .redirect = delivery { return true }
    return false
  }

  /// Decodes `bytes` and hands the result on; libcurl is told every byte was taken (a paused
  /// transfer would hand the same encoded bytes over again).
  private func receivedEncodedBody(
    _ bytes: UnsafeRawBufferPointer,
    decoder: ContentDecoder,
    response: HTTPResponse
  ) -> Int {
    let decoded: Data
    do {
      decoded = try decoder.decode(bytes)
    } catch {
      failOnLoop(
        MalformedResponse(method: hop.method, url: response.url ?? hop.url, reason: error.reason))
      return 0
    }
    if decoded.isEmpty {
      lastActivity = loop.now
      return bytes.count
    }
    let taken = decoded.withUnsafeBytes { deliverBody($0, mustTake: true) }
    return taken == decoded.count ? bytes.count : 0
  }

  /// Hands body bytes to the reader, the file or the buffer. With `mustTake`, bytes that arrive
  /// while the reader's buffer is full are queued anyway and receiving pauses after them.
  private func deliverBody(_ bytes: UnsafeRawBufferPointer, mustTake: Bool) -> Int {
    let count = bytes.count
    let now = loop.now
    if case .redirect = delivery {
      // The body of a redirect that is followed is read and dropped, within bounds: past the
      // response size limit it fails the request; past `redirectBodyLimit` the rest is left
      // unread (the connection is closed) and the redirect is followed at once.
      lastActivity = now
      hopBytesReceived += Int64(count)
      if let limit = options.maximumResponseSize, hopBytesReceived > Int64(limit) {
        failOnLoop(ResponseTooLarge(limit: limit, received: hopBytesReceived))
        return 0
      }
      if hopBytesReceived > Int64(Self.redirectBodyLimit) {
        abandonedRedirectBody = true
        return 0
      }
      return count
    }
    if let limit = options.maximumResponseSize, hopBytesReceived + Int64(count) > Int64(limit) {
      failOnLoop(ResponseTooLarge(limit: limit, received: hopBytesReceived + Int64(count)))
      return 0
    }
    switch delivery {
    case .redirect:
      return count
    case .pending, .inline:
      inline.append(bytes.assumingMemoryBound(to: UInt8.self))
      if case .inline = delivery, inline.count > options.inlineBodyLimit {
        // A compressed body grew past its declared length: stream it after all.
        let buffered = inline
        inline = Data()
        shared.withVisibleLock(for: self) { shared in
          shared.chunks.append(buffered)
          shared.bufferedBytes = buffered.count
        }
        loop.bytesWaitingForReaders.add(buffered.count, ordering: .relaxed)
        startStreaming(length: nil)
      }
    case .streaming:
      let data = Data(bytes)
      let limit = options.streamBufferSize
      enum Handoff {
        case queued
        case queuedThenPaused
        case reader(ChunkContinuation)
        case paused
        case stopped
      }
      let handoff = shared.withVisibleLock(for: self) { shared -> Handoff in
        guard shared.isOpen else { return .stopped }
        if let waiter = shared.waiter {
          shared.waiter = nil
          return .reader(waiter)
        }
        if shared.bufferedBytes >= limit {
          shared.pausedForReader = true
          guard mustTake else { return .paused }
          shared.chunks.append(data)
          shared.bufferedBytes += count
          return .queuedThenPaused
        }
        shared.chunks.append(data)
        shared.bufferedBytes += count
        return .queued
      }
      switch handoff {
      case .queued: loop.bytesWaitingForReaders.add(count, ordering: .relaxed)
      case .queuedThenPaused:
        loop.bytesWaitingForReaders.add(count, ordering: .relaxed)
        // Taken, and no more until the reader catches up (the reader unpauses, as for a
        // pause returned from this callback).
        if let handle = easy { _ = ccurl_easy_pause(handle.pointer, CCURLPAUSE_RECV) }
      case .reader(let waiter): waiter.resume(returning: data)
      // libcurl keeps the bytes and hands them over again once unpaused.
      case .paused: return Int(CCURL_WRITEFUNC_PAUSE)
      case .stopped: return 0
      }
    case .file(let file):
      do {
        try file.write(bytes.baseAddress!, count: count)
      } catch {
        failOnLoop(error)
        return 0
      }
      if let progress = options.downloadProgress {
        progress(
          TransferProgress(
            completed: hopBytesReceived + Int64(count),
            expected: expectedLength
          )
        )
      }
    case .errorBody:
      if inline.count < 1024 * 1024 { inline.append(bytes.assumingMemoryBound(to: UInt8.self)) }
    }
    lastActivity = now
    if firstBodyByte == nil { firstBodyByte = now }
    hopBytesReceived += Int64(count)
    bytesReceived += Int64(count)
    return count
  }

  private func readBody(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
    lastActivity = loop.now
    var count = 0
    var producer: UnsafeContinuation<Void, Never>?
    switch hop.body {
    case .none:
      return 0
    case .data(let data):
      count = min(capacity, data.count - Int(uploadOffset))
      if count > 0 {
        data.withUnsafeBytes { source in
          buffer.copyMemory(from: source.baseAddress! + Int(uploadOffset), byteCount: count)
        }
      }
    case .file(_, let declared):
      // Exactly the declared bytes: a file that shrank fails at its early end, one that grew
      // fails before its last declared bytes are handed over, so the server never sees a
      // complete request and no extra byte reaches the connection.
      let remaining = Int(declared - uploadOffset)
      count = readFile(into: buffer, capacity: min(capacity, remaining))
      if count < 0 { return Int(CCURL_READFUNC_ABORT) }
      var probe: UInt8 = 0
      let grew = count == remaining && readFile(into: &probe, capacity: 1) > 0
      if (count == 0 && remaining > 0) || grew {
        failOnLoop(
          BodyLengthMismatch(
            method: hop.method,
            url: hop.url,
            declared: declared,
            produced: grew ? fileSize() : uploadOffset + Int64(count)
          ))
        return Int(CCURL_READFUNC_ABORT)
      }
    case .stream(let upload):
      let read: StreamedUpload.Read
      (read, producer) = upload.read(into: buffer, room: capacity)
      switch read {
      case .bytes(let copied): count = copied
      // The stream's next chunk (or its end) wakes the loop, which resumes the transfer.
      case .pause:
        // A producer waiting for room while the last byte is held back goes on to its end.
        producer?.resume()
        return Int(CCURL_READFUNC_PAUSE)
      case .end: return 0
      case .failed(let error):
        failOnLoop(error)
        return Int(CCURL_READFUNC_ABORT)
      }
    }
    uploadOffset += Int64(count)
    if count > 0, let progress = options.uploadProgress {
      progress(
        TransferProgress(completed: uploadOffset, expected: hop.body.length)
      )
    }
    // Asked for more only once the bytes taken were reported.
    producer?.resume()
    return count
  }

  /// Reads from the upload file, retrying when interrupted; -1 on a read error.
  private func readFile(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
    guard capacity > 0 else { return 0 }
    while true {
      let count = read(uploadDescriptor, buffer, capacity)
      if count >= 0 || errno != EINTR { return count }
    }
  }

  /// The upload file's size now.
  private func fileSize() -> Int64 {
    var status = stat()
    return fstat(uploadDescriptor, &status) == 0 ? Int64(status.st_size) : -1
  }

  private func seekBody(to offset: Int64, origin: Int32) -> Int32 {
    guard origin == SEEK_SET, offset >= 0 else { return CCURL_SEEKFUNC_FAIL }
    switch hop.body {
    case .stream:
      // A stream cannot go back; libcurl rewinds before it sends, which is no move at all.
      return offset == uploadOffset ? CCURL_SEEKFUNC_OK : CCURL_SEEKFUNC_FAIL
    case .none, .data, .file:
      guard offset <= hop.body.length ?? 0 else { return CCURL_SEEKFUNC_FAIL }
    }
    if uploadDescriptor >= 0, lseek(uploadDescriptor, off_t(offset), SEEK_SET) < 0 {
      return CCURL_SEEKFUNC_FAIL
    }
    uploadOffset = offset
    return CCURL_SEEKFUNC_OK
  }

  // MARK: - Loop side: the end of a request

  /// The easy handle finished the current hop with `code`.
  func transferEnded(code: Int32) -> Next {
    guard isLive else { return .retire }
    lastActivity = loop.now
    if abandonedRedirectBody, let response { return followRedirect(from: response) }
    guard code == CCURLE_OK else {
      failOnLoop(failure(endingWith: code))
      return .retire
    }
    guard let response else {
      failOnLoop(connectionFailure(.invalidResponse, code: 0, "the server sent no response head"))
      return .retire
    }
    if let decoder = contentDecoder, !decoder.isFinished, endsWithBody {
      failOnLoop(
        MalformedResponse(
          method: hop.method,
          url: response.url ?? hop.url,
          reason: "the \(decoder.coding) body ended before the end of its compressed stream "
            + "(cut short by the server or the connection)"
        ))
      return .retire
    }
    switch delivery {
    case .redirect:
      return followRedirect(from: response)
    case .file(let file):
      do {
        try file.commit()
        settle(head: (response, .empty))
      } catch {
        failOnLoop(error)
      }
    case .errorBody:
      let accepted: AcceptedStatus
      if case .download(_, let set) = mode { accepted = set } else { accepted = .success }
      failOnLoop(
        UnexpectedResponse(
          method: hop.method,
          url: response.url ?? hop.url,
          response: response,
          body: inline,
          accepted: accepted
        )
      )
    case .pending, .inline:
      let body = HTTPBody(inline)
      inline = Data()
      settle(head: (response, body))
    case .streaming:
      settle(head: nil)
    }
    return .retire
  }

  /// The body ended normally: the caller gets the head (for inline bodies) or the end of the
  /// stream, once the loop retires the transfer.
  private func settle(head value: (HTTPResponse, HTTPBody)?) {
    let (head, waiter) = shared.withVisibleLock(for: self) {
      shared -> (HeadContinuation?, ChunkContinuation?) in
      guard shared.isOpen else { return (nil, nil) }
      shared.outcome = .finished
      defer {
        shared.head = nil
        shared.waiter = nil
      }
      return (shared.head, shared.waiter)
    }
    if let head, let value { pendingHead = (head, .success(value)) }
    if let waiter { pendingWaiter = (waiter, .success(nil)) }
  }

  private func followRedirect(from response: HTTPResponse) -> Next {
    guard let limit = options.redirectLimit else { return .retire }
    let location: URL
    do {
      location = try RedirectRule.location(
        response.headerFields.values(for: "Location").first ?? "",
        relativeTo: hop.url,
        status: response.status
      )
    } catch {
      failOnLoop(error)
      return .retire
    }
    if chain.count > limit {
      failOnLoop(
        TooManyRedirects(method: method, limit: limit, chain: chain + [location])
      )
      return .retire
    }
    do {
      hop = try RedirectRule.next(
        after: hop,
        status: response.status,
        location: location,
        credentialFieldNames: options.credentialFieldNames
      )
      chain.append(location)
      if let upload, case .none = hop.body { upload.close() }
      return .restart
    } catch {
      failOnLoop(error)
      return .retire
    }
  }

  // MARK: - Loop side: timeouts and retirement

  /// The first moment a timeout could fire, for a transfer that just started.
  func firstExpiry() -> ContinuousClock.Instant? {
    switch (options.deadline, options.idleTimeout) {
    case (let deadline?, let idle?): startInstant + min(deadline, idle)
    case (let deadline?, nil): startInstant + deadline
    case (nil, let idle?): startInstant + idle
    case (nil, nil): nil
    }
  }

  func timeoutCheck(now: ContinuousClock.Instant) -> TimeoutCheck {
    var next: ContinuousClock.Instant?
    let currentURL = response?.url ?? hop.url
    if let deadline = options.deadline {
      let elapsed = now - startInstant
      if elapsed >= deadline {
        return .expired(
          DeadlineExceeded(
            method: method,
            url: currentURL,
            limit: deadline,
            elapsed: elapsed
          )
        )
      }
      next = startInstant + deadline
    }
    if let idle = options.idleTimeout {
      let paused =
        shared.withVisibleLock(for: self) { $0.pausedForReader }
        || upload?.waitsForProducer == true
      let wake: ContinuousClock.Instant
      if paused {
        // A slow reader (or a slow request body stream) is not a silent server: check again
        // later.
        wake = now + idle
      } else {
        let silence = now - lastActivity
        if silence >= idle {
          return .expired(
            IdleTimeout(
              method: method, url: currentURL, limit: idle, silence: silence)
          )
        }
        wake = lastActivity + idle
      }
      next = min(next ?? wake, wake)
    }
    return next.map { .next($0) } ?? .none
  }

  /// libcurl's timings for the current hop.
  func curlInfo(_ handle: EasyHandle) -> CurlInfo {
    func time(_ info: Int32) -> Duration? {
      var microseconds: Int64 = 0
      guard ccurl_easy_getinfo_off_t(handle.pointer, info, &microseconds) == CCURLE_OK,
        microseconds > 0
      else { return nil }
      return .microseconds(microseconds)
    }
    var connects: CLong = 0
    var version: CLong = 0
    let hasConnects =
      ccurl_easy_getinfo_long(handle.pointer, CCURLINFO_NUM_CONNECTS, &connects) == CCURLE_OK
    _ = ccurl_easy_getinfo_long(handle.pointer, CCURLINFO_HTTP_VERSION, &version)
    let httpVersion: String? =
      switch version {
      case 1: "1.0"
      case 2: "1.1"
      case 3: "2"
      case 30: "3"
      default: nil
      }
    return CurlInfo(
      nameLookup: time(CCURLINFO_NAMELOOKUP_TIME_T),
      connect: time(CCURLINFO_CONNECT_TIME_T),
      tlsHandshake: time(CCURLINFO_APPCONNECT_TIME_T),
      firstByte: time(CCURLINFO_STARTTRANSFER_TIME_T),
      total: time(CCURLINFO_TOTAL_TIME_T),
      reusedConnection: hasConnects && response != nil ? connects == 0 : nil,
      httpVersion: httpVersion
    )
  }

  /// Resumes a head continuation that ``cancel()`` left for the loop, with the failure.
  private func resumeHeldHead() {
    let (head, error) = shared.withVisibleLock(for: self) {
      shared -> (HeadContinuation?, (any Error)?) in
      defer { shared.head = nil }
      if case .failed(let error) = shared.outcome { return (shared.head, error) }
      return (nil, nil)
    }
    if let head, let error { head.resume(throwing: error) }
  }

  /// The transfer left the loop: drops a partial download and reports the metrics.
  func retire(curlInfo: CurlInfo?) {
    if case .file(let file) = delivery { file.discard() }
    upload?.close()
    inline = Data()
    if shared.withVisibleLock(for: self, { $0.isOpen }) { failOnLoop(shutDownError()) }
    resumeHeldHead()
    defer {
      if let (continuation, result) = pendingHead { continuation.resume(with: result) }
      if let (continuation, result) = pendingWaiter { continuation.resume(with: result) }
      pendingHead = nil
      pendingWaiter = nil
    }
    guard let observer = options.metricsObserver else { return }
    let error: (any Error)? = shared.withVisibleLock(for: self) { shared in
      if case .failed(let error) = shared.outcome { return error }
      return nil
    }
    let end = ContinuousClock.now
    observer(
      TransferMetrics(
        method: method,
        url: url,
        finalURL: response?.url,
        status: response?.status,
        // Derived here rather than read at the start: only requests with an observer pay for it.
        startDate: Date(timeIntervalSinceNow: -(end - startInstant).seconds),
        start: startInstant,
        responseStart: responseStart,
        firstBodyByte: firstBodyByte,
        end: end,
        nameLookup: curlInfo?.nameLookup,
        connect: curlInfo?.connect,
        tlsHandshake: curlInfo?.tlsHandshake,
        firstByte: curlInfo?.firstByte,
        total: curlInfo?.total,
        reusedConnection: curlInfo?.reusedConnection,
        httpVersion: curlInfo?.httpVersion,
        bytesSent: bytesSent,
        bytesReceived: bytesReceived,
        redirectCount: chain.count - 1,
        error: error
      )
    )
  }

  // MARK: - Errors

  func shutDownError() -> CurlHTTPClient.ShutDown {
    CurlHTTPClient.ShutDown(method: method, url: url)
  }

  func connectionFailure(
    _ kind: CurlHTTPClient.ConnectionFailure.Kind,
    code: Int32,
    _ detail: String
  ) -> CurlHTTPClient.ConnectionFailure {
    CurlHTTPClient.ConnectionFailure(
      method: hop.method,
      url: hop.url,
      kind: kind,
      curlCode: Int(code),
      detail: detail
    )
  }

  func curlFailure(_ code: Int32) -> CurlHTTPClient.ConnectionFailure {
    if code == CCURLE_SEND_FAIL_REWIND, case .stream = hop.body {
      // libcurl wanted to send the body again on a new connection after the first one closed.
      let detail =
        "the connection closed after part of the streamed request body was sent, "
        + "and a stream cannot be sent again"
      return connectionFailure(.connectionLost, code: code, detail)
    }
    let detail = easy?.message(for: code) ?? String(cString: ccurl_easy_strerror(code))
    let kind: CurlHTTPClient.ConnectionFailure.Kind
    switch code {
    case CCURLE_COULDNT_CONNECT: kind = .cannotConnect
    case CCURLE_COULDNT_RESOLVE_HOST, CCURLE_COULDNT_RESOLVE_PROXY: kind = .hostNotFound
    case CCURLE_PARTIAL_FILE, CCURLE_RECV_ERROR, CCURLE_SEND_ERROR, CCURLE_GOT_NOTHING,
      CCURLE_HTTP2, CCURLE_HTTP2_STREAM:
      kind = .connectionLost
    case CCURLE_UNSUPPORTED_PROTOCOL, CCURLE_WEIRD_SERVER_REPLY, CCURLE_BAD_CONTENT_ENCODING:
      kind = .invalidResponse
    case CCURLE_SSL_CONNECT_ERROR, CCURLE_SSL_CERTPROBLEM, CCURLE_SSL_CIPHER,
      CCURLE_PEER_FAILED_VERIFICATION, CCURLE_SSL_CACERT_BADFILE, CCURLE_SSL_ISSUER_ERROR,
      CCURLE_SSL_ENGINE_NOTFOUND, CCURLE_SSL_PINNEDPUBKEYNOTMATCH:
      kind = .tls
    case CCURLE_PROXY: kind = .proxy
    case CCURLE_OPERATION_TIMEDOUT: kind = .timedOut
    default: kind = .other
    }
    return connectionFailure(kind, code: code, detail)
  }
}

extension CurlTransfer.Shared {
  enum Take {
    case chunk(Data)
    case end
    case failure(any Error)
    case wait
  }

  /// Takes the next unread chunk; also says whether a paused transfer should now resume.
  mutating func take(resumeBelow threshold: Int) -> (Take, unpause: Bool) {
    if chunkIndex < chunks.count {
      let chunk = chunks[chunkIndex]
      chunkIndex += 1
      bufferedBytes -= chunk.count
      if chunkIndex == chunks.count {
        chunks.removeAll(keepingCapacity: true)
        chunkIndex = 0
      }
      var unpause = false
      if pausedForReader, bufferedBytes <= threshold, isOpen {
        pausedForReader = false
        unpause = true
      }
      return (.chunk(chunk), unpause)
    }
    if pausedForReader, isOpen {
      pausedForReader = false
      return (.wait, true)
    }
    switch outcome {
    case .finished: return (.end, false)
    case .failed(let error): return (.failure(error), false)
    case nil: return (.wait, false)
    }
  }
}
