internal import CCurl
import EndpointKernel

/// A response that ends while the request body's stream is still open ends the exchange: a
/// server may answer before it has read the whole request (an upload it refuses, a duplex
/// exchange), and libcurl would otherwise wait to send the rest, so the call would wait for a
/// stream that may never end. The transfer is ended as complete and the rest of the upload is
/// dropped with its connection.
///
/// The end is known from the response's framing: no body, or a `Content-Length` reached
/// (libcurl tells no end of a chunked body to its callbacks, so that one is not watched).
extension CurlTransfer {
  /// The final head arrived (not a redirect that is followed): starts watching for the end of
  /// its body while the request body's stream is still being sent. Loop thread.
  func watchForAnswer() {
    guard let upload, upload.hasUnsentBytes, let response else { return }
    if !ResponseFraming.hasBody(status: response.status, method: hop.method) {
      answerLength = 0
    } else if parser.framing.isPlain, parser.framing.contentLengthCount == 1 {
      answerLength = parser.framing.contentLength
    }
    if answerLength != nil { checkAnswered() }
  }

  /// Has the loop end the exchange once every byte of the response body arrived (libcurl
  /// counts the bytes on the wire, before any decoding) while the upload has bytes to send.
  /// Loop thread, in a callback: the loop ends it after the round.
  func checkAnswered() {
    guard let length = answerLength, !answerEndScheduled, let easy else { return }
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
