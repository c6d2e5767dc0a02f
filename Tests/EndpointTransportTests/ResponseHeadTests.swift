import EndpointKernel
import Foundation
import Testing

@testable import EndpointTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ResponseHeadTests {
  private let url = URL(string: "http://127.0.0.1/doc")!

  private func response(_ fields: [String: String], status: Int = 200) throws -> HTTPResponse {
    let http = try #require(
      HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
    )
    return HTTPResponse(http)
  }

  private func head(_ fields: [String: String], status: Int = 200) throws
    -> FoundationResponseHead
  {
    let http = try #require(
      HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
    )
    return FoundationResponseHead(http)
  }

  @Test func foundationFieldsAreOrderedByNameIgnoringCase() throws {
    let head = try response([
      "server": "nginx", "Content-Type": "application/json", "ETag": "\"1\"",
      "accept-ranges": "bytes", "Date": "today", "X-b": "2", "x-A": "1",
    ])
    // Foundation may recase well-known names; the order ignores case either way.
    #expect(
      head.headerFields.map { $0.name.lowercased() } == [
        "accept-ranges", "content-type", "date", "etag", "server", "x-a", "x-b",
      ]
    )
    #expect(head.headerFields.contains { $0.name == "x-A" })
    #expect(head.headerFields["content-type"] == "application/json")
    #expect(head.status == 200)
    #expect(head.url == url)
  }

  @Test func aFieldNameThatIsNotATokenIsDroppedNotFatal() throws {
    let head = try response(["Good": "1", "Bad Name": "2"])
    #expect(head.headerFields.map(\.name) == ["Good"])
  }

  @Test func declaredLengthIsContentLengthWhenTheBodyIsDeliveredAsSent() throws {
    #expect(try head(["Content-Length": "300"]).declaredBodyLength(method: .get) == 300)
    #expect(try head(["content-length": "0"]).declaredBodyLength(method: .get) == 0)
    let identity = try head(["CONTENT-LENGTH": "12", "Content-Encoding": "IDENTITY"])
    #expect(identity.declaredBodyLength(method: .post) == 12)
  }

  @Test func declaredLengthIsUnknownWhenTheBodyIsDecodedMissingOrInvalid() throws {
    let gzip = try head(["Content-Length": "300", "Content-Encoding": "gzip"])
    #expect(gzip.declaredBodyLength(method: .get) == nil)
    #expect(try head([:]).declaredBodyLength(method: .get) == nil)
    #expect(try head(["Content-Length": "-1"]).declaredBodyLength(method: .get) == nil)
    #expect(try head(["Content-Length": "12, 13"]).declaredBodyLength(method: .get) == nil)
    #expect(try head(["Content-Length": "ten"]).declaredBodyLength(method: .get) == nil)
    #expect(try head(["Content-Length": "+12"]).declaredBodyLength(method: .get) == nil)
  }

  @Test func repeatedEqualLengthsDeclareThatLength() throws {
    // Foundation joins repeated fields with ", "; one value repeated is that value (RFC 9110).
    #expect(try head(["Content-Length": "12, 12"]).declaredBodyLength(method: .get) == 12)
  }

  @Test func aHeadThatIsNotHTTPIsRefusedNeverAssumedOK() throws {
    let plain = FoundationResponseHead(
      URLResponse(url: url, mimeType: nil, expectedContentLength: 4, textEncodingName: nil)
    )
    let refusal = plain.refusal(method: .get, url: url, request: HTTPFields())
    #expect(
      (refusal as? TransportFailure)?.kind == .malformedResponse, "\(String(describing: refusal))")
    #expect(plain.status != 200)
    #expect(plain.declaredBodyLength(method: .get) == nil)
  }

  @Test func aSwitchOfProtocolsNobodyAskedForIsRefused() throws {
    let switched = try head(["Upgrade": "websocket", "Connection": "Upgrade"], status: 101)
    let refusal = try #require(
      switched.refusal(method: .get, url: url, request: HTTPFields())
        as? TransportFailure
    )
    #expect(refusal.kind == .malformedResponse)
    #expect(refusal.description.contains("switched protocols to \"websocket\""))
    #expect("\(refusal)".contains("101"))
    var asked = HTTPFields()
    try asked.append("websocket", for: "Upgrade")
    #expect(switched.refusal(method: .get, url: url, request: asked) == nil)
    let interim = try head([:], status: 103)
    #expect(
      (interim.refusal(method: .get, url: url, request: asked) as? TransportFailure)?.kind
        == .malformedResponse)
  }

  @Test(arguments: ["5, 10", "0x5", "+5", "1 0", "9223372036854775808", "-1", "", "5,"])
  func aContentLengthThatIsNotOneLengthIsRefused(value: String) throws {
    let refusal = try #require(
      try head(["Content-Length": value]).refusal(method: .get, url: url, request: HTTPFields())
        as? TransportFailure
    )
    #expect(refusal.kind == .malformedResponse)
    #expect(refusal.description.contains("Content-Length \"\(value)\""))
    #expect(refusal.url == url)
  }

  @Test func aValidHeadIsDelivered() throws {
    let fine = try head(["Content-Length": "10, 10"])
    #expect(fine.refusal(method: .get, url: url, request: HTTPFields()) == nil)
    #expect(
      try head([:], status: 204).refusal(method: .get, url: url, request: HTTPFields()) == nil)
  }

  @Test func theCallbacksReadStatusAndURLWithoutConvertingTheHead() throws {
    let moved = try head(["Location": "/next"], status: 307)
    #expect(moved.status == 307)
    #expect(moved.url == url)
    #expect(moved.converted.headerFields["location"] == "/next")
  }

  @Test func responsesWithoutABodyDeclareZero() throws {
    let stray = ["Content-Length": "5"]
    #expect(try head(stray, status: 204).declaredBodyLength(method: .get) == 0)
    #expect(try head(stray, status: 304).declaredBodyLength(method: .get) == 0)
    #expect(try head(stray, status: 200).declaredBodyLength(method: .head) == 0)
  }

  @Test func fieldNamesCompareIgnoringASCIICaseOnly() {
    #expect(FieldName.equals("Content-Length", "content-length"))
    #expect(FieldName.equals("HOST", "host"))
    #expect(!FieldName.equals("hosts", "host"))
    #expect(!FieldName.equals("hos", "host"))
    #expect(!FieldName.equals("h\u{f6}st", "host"))
    #expect(FieldName.precedes("accept", "Age"))
    #expect(FieldName.precedes("X-A", "x-b"))
    #expect(FieldName.precedes("Date", "date-2"))
    #expect(!FieldName.precedes("date", "DATE"))
    #expect(!FieldName.precedes("Server", "ETag"))
  }

  @Test func theURLRequestDropsFramingFieldsAndKeepsTheRest() throws {
    var fields = HTTPFields()
    for (name, value) in [
      ("Accept", "application/json"), ("content-LENGTH", "99"), ("Host", "evil"),
      ("Transfer-Encoding", "chunked"), ("CONNECTION", "close"), ("X-Trace", "1"),
      ("x-trace", "2"),
    ] {
      try fields.append(value, for: name)
    }
    let get = Hop(method: .get, url: url, headerFields: fields, body: .none, bodyIsReplayable: true)
    let request = get.urlRequest(timeoutInterval: 7)
    #expect(request.httpMethod == "GET")
    #expect(request.timeoutInterval == 7)
    let sent = try #require(request.allHTTPHeaderFields)
    #expect(
      sent.keys.map { $0.lowercased() }.sorted()
        == (Hop.acceptEncoding == nil
          ? ["accept", "user-agent", "x-trace"]
          : ["accept", "accept-encoding", "user-agent", "x-trace"]))
    #expect(request.value(forHTTPHeaderField: "X-Trace") == "1, 2")
    #expect(request.value(forHTTPHeaderField: "User-Agent") == WireFields.defaultUserAgent)
    let patch = Hop(
      method: .patch, url: url, headerFields: fields, body: .none, bodyIsReplayable: true)
    #expect(patch.urlRequest(timeoutInterval: 7).httpMethod == "PATCH")
  }
}
