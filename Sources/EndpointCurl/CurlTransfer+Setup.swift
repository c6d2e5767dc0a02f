internal import CCurl
import EndpointKernel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Setting the easy handle up for one hop: the baseline every request of the loop shares, TLS,
/// the proxy, the method and body, and the list of header fields.
extension CurlTransfer {
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
    answerLength = nil
    answerEndScheduled = false
    chunkedAnswer = nil
    libcurlHoldsBody = false
    uploadOffset = 0
    contentDecoder = nil
    contentDecoderResolved = false
    decodesContent =
      ContentDecoder.acceptEncoding != nil && !hop.headerFields.contains("Accept-Encoding")

    let context = Unmanaged.passUnretained(self).toOpaque()
    let urlCode = hop.url.absoluteString.withCString {
      ccurl_easy_setopt_string(easy, CCURLOPT_URL, $0)
    }
    guard urlCode == CCURLE_OK else {
      return InvalidRequest(
        .url, reason: handle.message(for: urlCode), input: Redaction.redacted(hop.url))
    }
    // Over https a request waits for a connection to the same host that is still being opened
    // to learn by ALPN whether it multiplexes, instead of opening one more: a burst to an
    // HTTP/2 server shares one connection. Not over http, where the wait would last until the
    // first response arrived (over http libcurl speaks HTTP/1.1 only).
    let waitsForMultiplexing: CLong = hop.url.scheme?.lowercased() == "https" ? 1 : 0
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_PIPEWAIT, waitsForMultiplexing)
    // libcurl allocates the receive buffer for each transfer: a download to a file gets a large
    // one, every other request a buffer that a small response costs nothing extra for.
    let receiveBuffer: Int
    if case .download = mode {
      receiveBuffer = CurlBuffers.downloadReceive
    } else {
      receiveBuffer = CurlBuffers.receive
    }
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_BUFFERSIZE, CLong(receiveBuffer))
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
    headerList = makeHeaderList(handle)
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
    // Nor sends a request again on its own: a `417` to `Expect: 100-continue` would be sent
    // again on the same connection, the caller's `Expect` field still on it, the server's
    // answer as the trailer of the first (see `expectsContinue`).
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_MAXREDIRS, 0)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_TCP_NODELAY, 1)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_UPLOAD_BUFFERSIZE, CLong(CurlBuffers.upload))
    configureTLS(easy)
    configureProxy(easy)
    applyConnectionOptions(handle)
    // Bodies are decoded by the client when zlib loads (ContentDecoder); otherwise by libcurl,
    // with every decoder it was built with.
    if ContentDecoder.acceptEncoding == nil {
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
      let taken = transfer.receivedBody(
        UnsafeRawBufferPointer(start: buffer, count: size * count))
      transfer.wroteBody(leftToLibcurl: taken == Int(CCURL_WRITEFUNC_PAUSE))
      return taken
    }
    loop.watchSockets(of: handle)
  }

  private func configureTLS(_ easy: OpaquePointer) {
    let tls = loop.settings.tls
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_SSL_VERIFYPEER, 1)
    _ = ccurl_easy_setopt_long(easy, CCURLOPT_SSL_VERIFYHOST, 2)
    let version = tls.requiresTLS13 ? CCURL_SSLVERSION_TLSv1_3 : CCURL_SSLVERSION_TLSv1_2
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
        return InvalidRequest(.body, reason: String(cString: strerror(errno)), fileURL: fileURL)
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
  ///
  /// The lines are written into the handle's reused buffer and copied into one allocation
  /// (`ccurl_slist_block`), not one list node and one string copy per field.
  private func makeHeaderList(_ handle: EasyHandle) -> OpaquePointer? {
    var lines = handle.headerLines
    handle.headerLines = []
    lines.removeAll(keepingCapacity: true)
    var count = 0
    var hasExpect = false
    var hasContentType = false
    let acceptEncoding = decodesContent ? ContentDecoder.acceptEncoding : nil
    var cookie: String?
    // Names are tokens and values hold no NUL (HTTPFields checks both), so NUL ends each line.
    WireFields.forEach(in: hop.headerFields, acceptEncoding: acceptEncoding) { name, value in
      if FieldName.equals(name, "cookie"), !value.isEmpty {
        // Given as CURLOPT_COOKIE, libcurl sends it in the one `Cookie` field, after the
        // cookies its engine keeps for the URL; as a header line it would send two fields.
        cookie = value
        return
      }
      if FieldName.equals(name, "expect") { hasExpect = true }
      if FieldName.equals(name, "content-type") { hasContentType = true }
      lines.append(contentsOf: name.utf8)
      if value.isEmpty {
        // "Name;" is libcurl's way to send a field with an empty value ("Name:" removes it).
        lines.append(UInt8(ascii: ";"))
      } else {
        lines.append(UInt8(ascii: ":"))
        lines.append(UInt8(ascii: " "))
        lines.append(contentsOf: value.utf8)
      }
      lines.append(0)
      count += 1
    }
    func add(_ line: StaticString) {
      lines.append(
        contentsOf: UnsafeBufferPointer(start: line.utf8Start, count: line.utf8CodeUnitCount))
      lines.append(0)
      count += 1
    }
    if !hasExpect {
      add("Expect:")
    } else if expectsContinue, hop.body.length != 0 {
      // A final answer may come instead of `100 Continue`, with the declared body unsent: the
      // connection ends with the exchange, so no server reads the next request as that body.
      _ = ccurl_easy_setopt_long(handle.pointer, CCURLOPT_FORBID_REUSE, 1)
      handle.needsBaseline = true
    }
    // libcurl labels every body it sends with POST as a form, an empty one too; a body
    // without a type goes without one, as the caller made it.
    if !hasContentType, hop.body.length != 0 || hop.method == .post {
      add("Content-Type:")
    }
    // libcurl sends a length for POST itself; other methods get the same `Content-Length: 0`
    // from both clients.
    if hop.body.length == 0, hop.method != .post, WireFields.sendsZeroLength(for: hop.method) {
      add("Content-Length: 0")
    }
    let list = lines.withUnsafeBytes { bytes in
      ccurl_slist_block(
        bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, count)
    }
    handle.headerLines = lines
    if let cookie {
      _ = ccurl_easy_setopt_string(handle.pointer, CCURLOPT_COOKIE, cookie)
      handle.needsBaseline = true
    }
    return list
  }

  /// Whether the hop's fields ask the server to confirm before the body is sent
  /// (`Expect: 100-continue`, which libcurl honours: it waits up to a second for `100 Continue`).
  var expectsContinue: Bool {
    hop.headerFields.values(for: "Expect").contains {
      $0.lowercased().contains("100-continue")
    }
  }

  /// Frees what the hop held; the easy handle stays as it is until reset.
  func endHop(on handle: EasyHandle) {
    if let headerList {
      ccurl_slist_block_free(headerList)
      self.headerList = nil
    }
    if uploadDescriptor >= 0 {
      close(uploadDescriptor)
      uploadDescriptor = -1
    }
    bytesSent += uploadOffset
    uploadOffset = 0
  }
}
