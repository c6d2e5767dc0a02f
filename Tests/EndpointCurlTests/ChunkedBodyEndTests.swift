import Testing

@testable import EndpointCurl

/// The end of a chunked body, found in its raw bytes however they are split.
@Suite struct ChunkedBodyEndTests {
  /// Feeds `text` in pieces of `piece` bytes; the state at the end, and whether the piece that
  /// ended the body (if one did) carried chunk data.
  private func scan(_ text: String, piece: Int) -> (ChunkedBodyEnd, lastCarriedData: Bool) {
    var scanner = ChunkedBodyEnd()
    var carried = false
    let bytes = Array(text.utf8)
    var start = 0
    while start < bytes.count, !scanner.hasEnded {
      let end = min(start + piece, bytes.count)
      carried = bytes[start..<end].withUnsafeBytes { scanner.scan($0) }
      start = end
    }
    return (scanner, carried)
  }

  @Test(arguments: [1, 2, 3, 7, 1000])
  func theLastChunkAndTheTrailerSectionEndTheBody(piece: Int) {
    let bodies = [
      "5\r\nhello\r\n0\r\n\r\n",
      "5;name=value\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n000\r\n\r\n",
      "5\r\nhello\r\n0\r\nX-Early: done\r\nX-Other: 1\r\n\r\n",
      // Bare LFs, which libcurl accepts too.
      "5\nhello\n0\nX-Early: done\n\n",
    ]
    for body in bodies {
      #expect(scan(body, piece: piece).0.hasEnded, "\(body.debugDescription) by \(piece)")
      // Not before its last byte.
      #expect(!scan(String(body.dropLast()), piece: piece).0.hasEnded)
    }
  }

  @Test func aPieceThatEndsTheBodyTellsWhetherItCarriedData() {
    #expect(scan("5\r\nhello\r\n0\r\n\r\n", piece: 1000).lastCarriedData)
    var scanner = ChunkedBodyEnd()
    let first = Array("5\r\nhel".utf8).withUnsafeBytes { scanner.scan($0) }
    let second = Array("lo\r\n".utf8).withUnsafeBytes { scanner.scan($0) }
    let last = Array("0\r\n\r\n".utf8).withUnsafeBytes { scanner.scan($0) }
    #expect(first && second && !last)
    #expect(scanner.hasEnded)
  }

  @Test func bytesThatAreNotChunkedFramingStopTheWatch() {
    for text in ["hello", "5\r\nhelloXY0\r\n\r\n", "0\r\n\rX", "1234567890123456\r\n"] {
      let (scanner, _) = scan(text + "0\r\n\r\n", piece: 1000)
      #expect(scanner.state == .invalid, "\(text.debugDescription)")
    }
  }
}
