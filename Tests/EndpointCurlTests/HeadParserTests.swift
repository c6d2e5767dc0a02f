import EndpointKernel
import Foundation
import Testing

@testable import EndpointCurl

/// The response head as it is built from libcurl's header lines.
@Suite struct HeadParserTests {
  /// Feeds `lines` (each given without its line end) the way libcurl hands them over.
  private func parse(_ lines: [String]) -> (HeadParser, [HeadParser.Event]) {
    var parser = HeadParser()
    var events: [HeadParser.Event] = []
    for line in lines {
      let bytes = Array((line + "\r\n").utf8)
      events.append(bytes.withUnsafeBytes { parser.consume($0) })
    }
    return (parser, events)
  }

  private func response(_ parser: HeadParser) throws -> HTTPResponse {
    HTTPResponse(status: try #require(parser.status), headerFields: parser.fields)
  }

  @Test func fieldsKeepTheirOrderCaseAndRepeatedNames() throws {
    let (parser, events) = parse([
      "HTTP/1.1 200 OK", "X-Order: a", "Content-Type:  text/plain \t", "x-order: b", "",
    ])
    #expect(events.last.map { if case .complete = $0 { true } else { false } } == true)
    #expect(parser.status == 200)
    #expect(parser.fields.map(\.name) == ["X-Order", "Content-Type", "x-order"])
    #expect(parser.fields.values(for: "X-ORDER") == ["a", "b"])
    #expect(parser.fields["content-type"] == "text/plain")
  }

  @Test func aStatusLineThatIsNotHTTP1IsNoted() {
    #expect(parse(["HTTP/1.1 200 OK", ""]).0.otherVersion == nil)
    #expect(parse(["HTTP/1.0 200", ""]).0.otherVersion == nil)
    let (spoken, _) = parse(["HTTP/2 200 OK", "Transfer-Encoding: chunked", ""])
    #expect(spoken.otherVersion == "HTTP/2")
    #expect(!spoken.otherVersionAsLibcurlWrites)
    #expect(spoken.framing.hasTransferEncoding)
    // The form libcurl writes for an HTTP/2 stream's head.
    let (written, _) = parse(["HTTP/2 200 ", ""])
    #expect(written.otherVersion == "HTTP/2")
    #expect(written.otherVersionAsLibcurlWrites)
  }

  @Test func fieldsHTTPFieldsWouldRejectAreDropped() {
    let (parser, _) = parse([
      "HTTP/1.1 200 OK", "Bad Name: 1", "X-CR: a\rb", "X-NUL: a\u{0}b", ": empty name",
      "X-Good: 1", "",
    ])
    #expect(parser.fields.map(\.name) == ["X-Good"])
  }

  @Test func foldedLinesContinueTheValueAndAreCheckedToo() {
    let (parser, _) = parse([
      "HTTP/1.1 200 OK", "X-Folded: one", "  two", "X-Bad-Fold: one", "\tbad\u{0}", "",
    ])
    #expect(parser.fields["X-Folded"] == "one two")
    #expect(!parser.fields.contains("X-Bad-Fold"))
  }

  @Test func foldingAroundAnEmptyPartKeepsTheValueTrimmed() {
    let (parser, _) = parse([
      "HTTP/1.1 200 OK", "X-Empty-First:", "  two", "X-Empty-Fold: one", " \t", "X-Empty:", " ", "",
    ])
    #expect(parser.fields["X-Empty-First"] == "two")
    #expect(parser.fields["X-Empty-Fold"] == "one")
    #expect(parser.fields["X-Empty"] == "")
  }

  @Test func interimHeadsAreSkipped() {
    let (parser, events) = parse([
      "HTTP/1.1 100 Continue", "X-Interim: 1", "", "HTTP/1.1 201 Created", "X-Final: 1", "",
    ])
    #expect(parser.status == 201)
    #expect(parser.fields.map(\.name) == ["X-Final"])
    #expect(events.filter { if case .complete = $0 { true } else { false } }.count == 1)
  }

  @Test func aPlainContentLengthIsTheDeclaredLength() throws {
    let (parser, _) = parse(["HTTP/1.1 200 OK", "content-LENGTH: 300", ""])
    let response = try response(parser)
    #expect(parser.framing.isPlain)
    #expect(parser.declaredBodyLength(of: response, method: .get) == 300)
    #expect(parser.declaredBodyLength(of: response, method: .head) == 0)
    #expect(parser.invalidContentLength(of: response) == nil)
  }

  @Test func unusualLengthsGetTheSameAnswersAsTheResponseGives() throws {
    let heads: [[String]] = [
      ["Content-Length: 12, 12"], ["Content-Length: 5", "Content-Length: 5"],
      ["Content-Length: 5", "Content-Length: 6"], ["Content-Length: 5, 6"],
      ["Content-Length: ten"], ["Content-Length: +5"], ["Content-Length: -1"],
      ["Content-Length: 99999999999999999999"], ["Content-Length: 7", "Content-Encoding: gzip"],
      ["Content-Length: 7", "Content-Encoding: identity"], [],
    ]
    for fields in heads {
      for status in [200, 204, 304] {
        let (parser, _) = parse(["HTTP/1.1 \(status) X"] + fields + [""])
        let response = try response(parser)
        for method in [HTTPMethod.get, .head] {
          #expect(
            parser.declaredBodyLength(of: response, method: method)
              == response.declaredBodyLength(method: method),
            "\(fields) \(status) \(method)")
        }
      }
    }
  }

  @Test func onlyPlainEqualLengthsAreValid() throws {
    let valid: [[String]] = [
      ["Content-Length: 12, 12"], ["Content-Length: 5", "Content-Length: 5"], ["Content-Length: 0"],
      [],
    ]
    let invalid: [[String]] = [
      ["Content-Length: 5", "Content-Length: 6"], ["Content-Length: 5, 6"],
      ["Content-Length: ten"], ["Content-Length: +5"], ["Content-Length: -1"],
      ["Content-Length: 0x5"], ["Content-Length: 1 0"], ["Content-Length: 5,"],
      ["Content-Length: 99999999999999999999"], ["Content-Length: 9223372036854775807"],
    ]
    for fields in valid {
      let (parser, _) = parse(["HTTP/1.1 200 OK"] + fields + [""])
      #expect(parser.invalidContentLength(of: try response(parser)) == nil, "\(fields)")
    }
    for fields in invalid {
      let (parser, _) = parse(["HTTP/1.1 200 OK"] + fields + [""])
      let reason = parser.invalidContentLength(of: try response(parser))
      #expect(reason?.contains("Content-Length") == true, "\(fields)")
    }
  }

  @Test func locationAndSetCookieAreNoted() {
    let (plain, _) = parse(["HTTP/1.1 200 OK", "X-Location: /a", ""])
    #expect(!plain.framing.hasLocation)
    #expect(!plain.sawSetCookie)
    let (redirect, _) = parse(["HTTP/1.1 302 Found", "LOCATION: /b", "set-cookie: a=1", ""])
    #expect(redirect.framing.hasLocation)
    #expect(redirect.sawSetCookie)
  }
}
