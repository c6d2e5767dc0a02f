import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct ResponseParserTests {
  @Test func voidIgnoresTheBodyAndAcceptsWhatItIsTold() throws {
    let parser = ResponseParser<Void>.void()
    #expect(parser.accept == nil)
    #expect(parser.acceptedStatus == .success)
    try parser.parse(try response(204), bytes("not even json"))
    #expect(ResponseParser<Void>.void(expecting: .codes(202)).acceptedStatus == .codes(202))
  }

  @Test func dataIsTheBodyAsItArrived() throws {
    let body = Data([0xFF, 0x00, 0x7F])
    #expect(try ResponseParser<Data>.data.parse(try response(), body) == body)
    #expect(ResponseParser<Data>.data.accept == nil)
  }

  @Test func stringDefaultsToUTF8AndAsksForText() throws {
    let parser = ResponseParser<String>.string
    #expect(parser.accept == "text/plain")
    #expect(try parser.parse(try response(), bytes("héllo ✓")) == "héllo ✓")
    #expect(try parser.parse(try response(), Data()) == "")
  }

  @Test func stringDropsAUTF8ByteOrderMark() throws {
    let body = Data([0xEF, 0xBB, 0xBF]) + bytes("hi")
    #expect(try ResponseParser<String>.string.parse(try response(), body) == "hi")
  }

  @Test func stringUsesTheCharsetOfContentType() throws {
    let latin1 = try response(200, [("Content-Type", "text/plain; charset=ISO-8859-1")])
    #expect(
      try ResponseParser<String>.string.parse(latin1, Data([0x63, 0x61, 0x66, 0xE9])) == "café")
    let ascii = try response(200, [("Content-Type", "text/plain; charset=us-ascii")])
    #expect(try ResponseParser<String>.string.parse(ascii, bytes("plain")) == "plain")
  }

  @Test(arguments: [
    ("utf-16", [0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00] as [UInt8]),  // little-endian BOM
    ("utf-16", [0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9]),  // big-endian BOM
    ("utf-16", [0x00, 0x68, 0x00, 0xE9]),  // no BOM: big-endian
    ("utf-16le", [0x68, 0x00, 0xE9, 0x00]),
    ("utf-16be", [0x00, 0x68, 0x00, 0xE9]),
    ("utf-16le", [0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00]),  // the mark is not text
  ])
  func stringDecodesUTF16(_ charset: String, _ body: [UInt8]) throws {
    let head = try response(200, [("Content-Type", "text/plain; charset=\(charset)")])
    #expect(try ResponseParser<String>.string.parse(head, Data(body)) == "hé")
  }

  @Test func stringDecodesUTF16SurrogatePairs() throws {
    let head = try response(200, [("Content-Type", "text/plain; charset=utf-16be")])
    #expect(try ResponseParser<String>.string.parse(head, Data([0xD8, 0x3D, 0xDE, 0x00])) == "😀")
  }

  @Test(arguments: [
    ("utf-8", [0xC3, 0x28] as [UInt8]),
    ("utf-8", [0xFF]),
    ("us-ascii", [0x41, 0xE9]),
    ("utf-16", [0x00, 0x68, 0x00]),  // odd length
    ("utf-16be", [0xDC, 0x00]),  // lone low surrogate
  ])
  func stringRejectsBytesThatAreNotValidInTheCharset(_ charset: String, _ body: [UInt8]) throws {
    let head = try response(200, [("Content-Type", "text/plain; charset=\(charset)")])
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<String>.string.parse(head, Data(body))
    }
    #expect(error.type == "String")
    #expect(error.reason.contains("not valid"))
    #expect(error.body == Data(body))
  }

  @Test func invalidUTF8WithoutACharsetIsAParsingFailure() throws {
    #expect(throws: ParsingFailure.self) {
      try ResponseParser<String>.string.parse(try response(), Data([0xC3]))
    }
  }

  @Test func unsupportedCharsetIsAParsingFailureNamingIt() throws {
    let head = try response(200, [("Content-Type", "text/plain; charset=Shift_JIS")])
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<String>.string.parse(head, bytes("abc"))
    }
    #expect(error.reason.contains("shift_jis"))
    #expect(error.description.contains("Could not parse String"))
  }

  @Test func customParserSeesTheResponseAndTheBody() throws {
    let parser = ResponseParser<String>(accept: "text/csv", acceptedStatus: .codes(200, 203)) {
      response, body in
      "\(response.status):\(response.headerFields["X-Count"] ?? "-"):\(text(body))"
    }
    #expect(parser.accept == "text/csv")
    #expect(parser.acceptedStatus == .codes(200, 203))
    #expect(try parser.parse(try response(203, [("X-Count", "7")]), bytes("a,b")) == "203:7:a,b")
  }

  @Test func customParserErrorsPassThrough() throws {
    let parser = ResponseParser<Int> { _, body in
      guard let value = Int(text(body)) else {
        throw ParsingFailure(type: "Int", reason: "not a number", body: body)
      }
      return value
    }
    #expect(try parser.parse(try response(), bytes("42")) == 42)
    let error = try #require(throws: ParsingFailure.self) {
      try parser.parse(try response(), bytes("forty-two"))
    }
    #expect(error.description.contains("not a number"))
    #expect(error.description.contains("forty-two"))
  }

  @Test func mapTransformsTheValueAndKeepsAcceptAndStatus() throws {
    let parser = ResponseParser<String>.string.accepting(.any).map { $0.count }
    #expect(parser.accept == "text/plain")
    #expect(parser.acceptedStatus == .any)
    #expect(try parser.parse(try response(), bytes("four")) == 4)
  }

  @Test func mapErrorsPassThrough() throws {
    let parser = ResponseParser<String>.string.map { _ -> Int in throw TestFailure(message: "no") }
    #expect(throws: TestFailure(message: "no")) { try parser.parse(try response(), Data()) }
  }

  @Test func acceptingReplacesTheStatuses() {
    let parser = ResponseParser<Data>.data.accepting(.codes(304))
    #expect(parser.acceptedStatus.contains(304))
    #expect(!parser.acceptedStatus.contains(200))
  }

  @Test func parsingFailureShowsTypePathReasonAndSnippet() {
    let failure = ParsingFailure(
      type: "User", path: "items[2].id", reason: "expected a number", body: bytes("{\"id\":\"x\"}"))
    #expect(
      failure.description
        == "Could not parse User at items[2].id: expected a number\n  body: {\"id\":\"x\"}")
  }
}

@Suite struct AcceptedStatusTests {
  @Test func successIsEvery2xx() {
    #expect(AcceptedStatus.success.contains(200))
    #expect(AcceptedStatus.success.contains(299))
    #expect(!AcceptedStatus.success.contains(199))
    #expect(!AcceptedStatus.success.contains(300))
    #expect(AcceptedStatus.success.description == "200...299")
  }

  @Test func codesAreExact() {
    let status = AcceptedStatus.codes(201, 204)
    #expect(status.contains(201))
    #expect(status.contains(204))
    #expect(!status.contains(200))
    #expect(status.description == "201, 204")
  }

  @Test func rangesCombine() {
    let status = AcceptedStatus([200...204, 304...304])
    #expect(status.contains(203))
    #expect(status.contains(304))
    #expect(!status.contains(205))
    #expect(status.description == "200...204, 304")
    #expect(AcceptedStatus.range(400...499).contains(404))
  }

  @Test func anyIsEveryStatus() {
    #expect(AcceptedStatus.any.contains(100))
    #expect(AcceptedStatus.any.contains(404))
    #expect(AcceptedStatus.any.contains(599))
  }

  @Test func hugeRangesDescribeWithoutOverflow() {
    let everything = AcceptedStatus.range(Int.min...Int.max)
    #expect(everything.contains(0))
    #expect(everything.description == "\(Int.min)...\(Int.max)")
  }

  @Test func noCodesAcceptsNothingAndSaysSo() {
    let none = AcceptedStatus.codes()
    #expect(!none.contains(200))
    #expect(none.description == "none")
  }
}
