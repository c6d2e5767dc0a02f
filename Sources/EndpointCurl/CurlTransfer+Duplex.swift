internal import CCurl
import EndpointKernel

/// A response that ends while the request body's stream is still open ends the exchange: a
/// server may answer before it has read the whole request (an upload it refuses, a duplex
/// exchange), and libcurl would otherwise wait to send the rest, so the call would wait for a
/// stream that may never end. The transfer is ended as complete and the rest of the upload is
/// dropped with its connection.
///
/// The end is known from the response's framing: no body, a `Content-Length` reached, or the
/// end of a chunked body. libcurl tells its callbacks no end of a chunked body, so for that one
/// the raw bytes received are watched through libcurl's debug callback (``ChunkedBodyEnd``),
/// turned on for this exchange only. A body delimited by the close of the connection ends with
/// the server's close, which libcurl tells no callback either (and while the upload waits for
/// the stream, libcurl never completes the transfer by itself): over plain HTTP the loop looks
/// at the socket each round until it finds the end (``checkClosedAnswer()``). Over HTTPS the
/// TLS layer may still hold bytes when the socket is at its end, so there the call waits for
/// the stream or the idle timeout.
extension CurlTransfer {
  /// The final head arrived (not a redirect that is followed): starts watching for the end of
  /// its body while the request body's stream is still being sent. Loop thread.
  func watchForAnswer() {
    guard let upload, upload.hasUnsentBytes, let response else { return }
    if !ResponseFraming.hasBody(status: response.status, method: hop.method) {
      answerLength = 0
    } else if parser.framing.isPlain, parser.framing.contentLengthCount == 1 {
      answerLength = parser.framing.contentLength
    } else if parser.framing.hasTransferEncoding, parser.framing.contentLengthCount == 0 {
      // The framing check let only a `Transfer-Encoding` ending in `chunked` through.
      watchChunkedAnswer()
    } else if parser.framing.contentLengthCount == 0, hop.url.scheme?.lowercased() == "http" {
      watchesClosedAnswer = true
      loop.watchClosedAnswer(self)
    }
    if answerLength != nil { checkAnswered() }
  }

  /// A body delimited by the close of the connection: once the server has closed its side
  /// and every byte before the close was read, the answer is whole. Returns whether to keep
  /// watching. Loop thread, between rounds.
  func checkClosedAnswer() -> Bool {
    // Once the stream has ended and was sent, libcurl completes the exchange itself.
    guard watchesClosedAnswer, !retired, let easy, upload?.hasUnsentBytes == true else {
      watchesClosedAnswer = false
      return false
    }
    guard !libcurlHoldsBody, ccurl_socket_at_end(loop.poller.socket(of: easy.pointer)) != 0
    else { return true }
    watchesClosedAnswer = false
    answerLength = 0
    checkAnswered()
    return false
  }

  /// Has libcurl hand the bytes received from here on to ``receivedRawBody(_:)``. The handle
  /// is reset before its next request (any request with a body leaves it to be).
  private func watchChunkedAnswer() {
    guard let easy else { return }
    chunkedAnswer = ChunkedBodyEnd()
    easy.needsBaseline = true
    _ = ccurl_easy_setopt_debug_callback(easy.pointer, CCURLOPT_DEBUGFUNCTION) {
      _, type, data, size, context in
      guard type == CCURLINFO_DATA_IN, let data, let context else { return 0 }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
      transfer.receivedRawBody(UnsafeRawBufferPointer(start: data, count: size))
      return 0
    }
    let context = Unmanaged.passUnretained(self).toOpaque()
    _ = ccurl_easy_setopt_pointer(easy.pointer, CCURLOPT_DEBUGDATA, context)
    // libcurl calls the debug callback only when verbose.
    _ = ccurl_easy_setopt_long(easy.pointer, CCURLOPT_VERBOSE, 1)
  }

  /// Bytes of a chunked answer as received, before libcurl decodes them (and before it hands
  /// their data to the write callback). Loop thread, in a callback.
  private func receivedRawBody(_ bytes: UnsafeRawBufferPointer) {
    guard var scanner = chunkedAnswer, !scanner.hasEnded else { return }
    let carriedData = scanner.scan(bytes)
    chunkedAnswer = scanner
    guard scanner.hasEnded else { return }
    // Every byte of the body is in: the end is checked once the write callback has taken the
    // data of these bytes, if they carry any, else now (or, while libcurl holds bytes for a
    // reader that is behind, when it hands them over).
    answerLength = 0
    if !carriedData { checkAnswered() }
  }

  /// After the write callback. Bytes it left to libcurl (the reader was behind), and what
  /// libcurl receives meanwhile, are handed over again once the transfer is unpaused, maybe in
  /// several calls: the exchange must not end before, even if its end was already asked of the
  /// loop in this round (the loop skips a transfer whose end is no longer asked).
  func wroteBody(leftToLibcurl: Bool) {
    libcurlHoldsBody = leftToLibcurl
    if leftToLibcurl {
      answerEndScheduled = false
    } else if answerLength != nil {
      checkAnswered()
    }
  }

  /// Has the loop end the exchange once every byte of the response body arrived (libcurl
  /// counts the bytes on the wire, before any decoding) while the upload has bytes to send,
  /// and the write callback has taken them all.
  /// Loop thread, in a callback: the loop ends it after the round.
  func checkAnswered() {
    guard let length = answerLength, !answerEndScheduled, !libcurlHoldsBody, let easy else {
      return
    }
    if length > 0 {
      var received: Int64 = 0
      guard
        ccurl_easy_getinfo_off_t(easy.pointer, CCURLINFO_SIZE_DOWNLOAD_T, &received)
          == CCURLE_OK, received >= length
      else { return }
    }
    guard upload?.hasUnsentBytes == true else {
      // The stream has ended and was sent: libcurl completes the exchange itself.
      answerLength = nil
      return
    }
    answerEndScheduled = true
    loop.endAfterRound(self)
  }
}
