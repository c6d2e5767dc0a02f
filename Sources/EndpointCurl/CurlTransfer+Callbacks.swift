internal import CCurl
import EndpointKernel
import EndpointPrimitives
import Synchronization

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

/// libcurl's callbacks on the loop thread: the head's lines, the final head (where the body
/// goes), body bytes on their way to the caller, the file or the buffer, and reading and
/// rewinding the request body.
extension CurlTransfer {
  // MARK: - Loop side: callbacks

  func receivedHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
    lastActivity = loop.now
    if response != nil {
      // After the final head, libcurl hands over the trailer section of a chunked body.
      trailerBytes += line.count
      trailerFields += 1
      if trailerBytes > Self.maximumTrailerBytes || trailerFields > Self.maximumTrailerFields {
        let detail =
          "the trailer section passed \(Self.maximumTrailerFields) fields or "
          + "\(Self.maximumTrailerBytes) bytes"
        failOnLoop(connectionFailure(.malformedResponse, code: 0, detail))
        return 0
      }
      trailers.add(line: line)
      return line.count
    }
    headBytes += line.count
    if headBytes > Self.maximumHeadBytes {
      let detail = "the response head passed \(Self.maximumHeadBytes) bytes"
      failOnLoop(connectionFailure(.malformedResponse, code: 0, detail))
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
      failOnLoop(connectionFailure(.malformedResponse, code: 0, "the response has no status line"))
      return false
    }
    let response = HTTPResponse(status: status, headerFields: parser.fields, url: hop.url)
    self.response = response
    responseStart = lastActivity
    if let upload, upload.responseHeadArrived() {
      // Resumed on the loop's next pass, after this callback returns.
      _ = loop.submit(.unpause(self))
    }
    if let detail = parser.invalidContentLength(of: response) ?? framingProblem(of: response) {
      failOnLoop(connectionFailure(.malformedResponse, code: 0, detail))
      return false
    }
    if options.redirectLimit != nil, RedirectRule.isFollowed(status), parser.framing.hasLocation {
      delivery = .redirect
      return true
    }
    watchForAnswer()
    let declared = parser.declaredBodyLength(of: response, method: hop.method)
    expectedLength = declared
    if let limit = options.maximumResponseSize, let declared, declared > Int64(limit) {
      failOnLoop(TransportFailure.responseTooLarge(limit: limit, received: declared))
      return false
    }
    switch mode {
    case .download(let destination, let accepted):
      guard accepted.contains(status) else {
        delivery = .errorBody
        return true
      }
      do {
        let file = try DownloadFile(destination: destination)
        delivery = .file(
          DownloadWriter(file: file) { [weak self] in
            // The queue caught up: the loop resumes the paused transfer on its next round.
            guard let self else { return }
            _ = self.loop.submit(.unpause(self))
          })
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

  /// Why the head just parsed frames its body ambiguously, or `nil`: a status line that is not
  /// HTTP/1.x on a connection that is (libcurl reads `HTTP/2 200` there as a 200, and reports
  /// the connection as HTTP/2 after it), or the kernel's rule on `Transfer-Encoding`
  /// (``ResponseFraming``). HTTP/2 is only ever negotiated over TLS, where libcurl writes the
  /// status line in its own form.
  private func framingProblem(of response: HTTPResponse) -> String? {
    if let version = parser.otherVersion,
      !(parser.otherVersionAsLibcurlWrites && hop.url.scheme?.lowercased() == "https"
        && connectionIsMultiplexed)
    {
      return "the status line's version \(HTTPToken.quotedForMessage(version, limit: 20)) "
        + "is not HTTP/1.x on an HTTP/1.1 connection"
    }
    guard parser.framing.hasTransferEncoding else { return nil }
    return ResponseFraming.ambiguity(
      status: response.status,
      method: hop.method,
      transferEncoding: response.headerFields.values(for: "Transfer-Encoding"),
      hasContentLength: parser.framing.contentLengthCount > 0
    )
  }

  /// Whether libcurl speaks HTTP/2 or HTTP/3 on the hop's connection, where it writes the head's
  /// status line as `HTTP/2 200` itself. Only such a head has a `:status` pseudo-header; the
  /// version libcurl reports follows the status line (a server on HTTP/1.1 that writes
  /// `HTTP/2 200 ` makes it report HTTP/2), so it only stands in where libcurl cannot look up
  /// that pseudo-header.
  private var connectionIsMultiplexed: Bool {
    guard let easy else { return false }
    switch ccurl_easy_has_status_pseudo_header(easy.pointer) {
    case 1: return true
    case 0: return false
    default: break
    }
    var version: CLong = 0
    guard ccurl_easy_getinfo_long(easy.pointer, CCURLINFO_HTTP_VERSION, &version) == CCURLE_OK
    else { return false }
    // CURL_HTTP_VERSION_2_0 and CURL_HTTP_VERSION_3.
    return version == 3 || version == 30
  }

  /// Hands the head to the caller with a body that streams from here on.
  private func startStreaming(length: Int64?) {
    delivery = .streaming
    guard let response else { return }
    var body = HTTPBody(TransferBody(transfer: self), length: length)
    body.trailers = trailers.read
    let head = shared.withVisibleLock { shared -> HeadContinuation? in
      guard shared.isOpen else { return nil }
      defer { shared.head = nil }
      return shared.head
    }
    head?.resume(returning: (response, body))
  }

  func receivedBody(_ bytes: UnsafeRawBufferPointer) -> Int {
    if decodesContent, let response, !isRedirectDelivery {
      if !contentDecoderResolved {
        contentDecoderResolved = true
        // Most bodies are not encoded: no decoder (and its 64 KiB buffer) is made for them.
        if response.headerFields.contains("Content-Encoding") {
          switch ContentDecoder.plan(
            contentEncoding: response.headerFields.values(for: "Content-Encoding"))
          {
          case .passThrough: break
          case .decode(let decoder): contentDecoder = decoder
          case .refuse(let reason):
            failOnLoop(
              TransportFailure.malformedResponse(
                method: hop.method, url: response.url ?? hop.url, reason: reason))
            return 0
          }
        }
      }
      if let decoder = contentDecoder {
        return receivedEncodedBody(bytes, decoder: decoder, response: response)
      }
    }
    return deliverBody(bytes, mustTake: false)
  }

  /// Whether the hop's body is the response's (not a redirect's, not an error body's).
  var endsWithBody: Bool {
    switch delivery {
    case .redirect, .errorBody: false
    case .pending, .inline, .streaming, .file: true
    }
  }

  private var isRedirectDelivery: Bool {
    if case .redirect = delivery { return true }
    return false
  }

  /// Decodes `bytes` and hands the result on as it is made. Each piece is checked against the
  /// size limit as it is made, and decoding stops while the reader is behind: libcurl then
  /// holds the bytes and hands them over again once unpaused (the decoder skips what it took),
  /// so a body that decodes to gigabytes holds no more than a plain one.
  private func receivedEncodedBody(
    _ bytes: UnsafeRawBufferPointer,
    decoder: ContentDecoder,
    response: HTTPResponse
  ) -> Int {
    lastActivity = loop.now
    var refused = false
    do {
      let progress = try decoder.decode(bytes) { piece in
        guard deliverBody(piece, mustTake: true) == piece.count else {
          refused = true
          return false
        }
        return !shared.withVisibleLock { $0.pausedForReader }
      }
      if refused { return 0 }
      return progress == .consumed ? bytes.count : Int(CCURL_WRITEFUNC_PAUSE)
    } catch {
      failOnLoop(
        TransportFailure.malformedResponse(
          method: hop.method, url: response.url ?? hop.url, reason: error.reason))
      return 0
    }
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
        failOnLoop(TransportFailure.responseTooLarge(limit: limit, received: hopBytesReceived))
        return 0
      }
      if hopBytesReceived > Int64(Self.redirectBodyLimit) {
        abandonedRedirectBody = true
        return 0
      }
      return count
    }
    if let limit = options.maximumResponseSize, hopBytesReceived + Int64(count) > Int64(limit) {
      failOnLoop(
        TransportFailure.responseTooLarge(limit: limit, received: hopBytesReceived + Int64(count)))
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
        shared.withVisibleLock { shared in
          shared.unread.append(buffered)
        }
        loop.bytesWaitingForReaders.add(buffered.count, ordering: .relaxed)
        startStreaming(length: nil)
      }
    case .streaming:
      let limit = options.bodyBufferLimit
      enum Handoff {
        case queued
        case queuedThenPaused
        case paused
        case stopped
      }
      // Queued, joined to the last unread chunk while there is room. A waiting reader is woken
      // as soon as a whole chunk waits, so it reads that chunk while the round goes on, and
      // otherwise once, when the loop's round ends, with what the round brought, not once per
      // piece.
      let (handoff, readerWaits, chunkIsFull) = shared.withVisibleLock {
        shared -> (Handoff, Bool, Bool) in
        guard shared.isOpen else { return (.stopped, false, false) }
        let readerWaits = shared.waiter != nil
        if shared.unread.bufferedBytes >= limit {
          shared.pausedForReader = true
          // Not taken: a waiting reader is woken when the round ends (and resumes the transfer).
          guard mustTake else { return (.paused, readerWaits, false) }
          shared.unread.append(bytes, joiningUpTo: CurlBuffers.coalescedChunk)
          return (.queuedThenPaused, readerWaits, true)
        }
        shared.unread.append(bytes, joiningUpTo: CurlBuffers.coalescedChunk)
        let full = shared.unread.bufferedBytes >= CurlBuffers.coalescedChunk
        return (.queued, readerWaits, full)
      }
      let wakesNow = readerWaits && chunkIsFull
      if readerWaits, !wakesNow, !readerWakeScheduled {
        readerWakeScheduled = true
        loop.wakeReaderAfterRound(self)
      }
      switch handoff {
      case .queued, .queuedThenPaused:
        loop.bytesWaitingForReaders.add(count, ordering: .relaxed)
        if wakesNow {
          readerWakeScheduled = true
          wakeReader()
        }
        // Taken, and no more until the reader catches up (the reader unpauses, as for a
        // pause returned from this callback).
        if handoff == .queuedThenPaused, let handle = easy {
          _ = ccurl_easy_pause(handle.pointer, CCURLPAUSE_RECV)
        }
      // libcurl keeps the bytes and hands them over again once unpaused.
      case .paused: return Int(CCURL_WRITEFUNC_PAUSE)
      case .stopped: return 0
      }
    case .file(let writer):
      switch writer.offer(bytes) {
      case .taken: break
      // libcurl keeps the bytes and hands them over again once unpaused.
      case .pause: return Int(CCURL_WRITEFUNC_PAUSE)
      case .failed(let error):
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

  func readBody(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
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
    case .file(let fileURL, let declared):
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
          TransportFailure.bodyLengthMismatch(
            method: hop.method,
            url: hop.url,
            declared: declared,
            produced: grew ? fileSize() : uploadOffset + Int64(count),
            fileURL: fileURL
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

  func seekBody(to offset: Int64, origin: Int32) -> Int32 {
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
}
