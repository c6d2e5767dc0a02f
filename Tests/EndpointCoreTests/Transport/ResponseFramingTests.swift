import EndpointCore
import EndpointKernel
import Testing

/// Whether a response has a body and the length it declares, as both transports read them.
@Suite struct ResponseFramingTests {
  @Test func headResponsesAndBodilessStatusesHaveNoBody() {
    for status in [100, 101, 199, 204, 304] {
      #expect(!ResponseFraming.hasBody(status: status, method: .get), "\(status)")
    }
    for status in [200, 201, 205, 206, 301, 400, 404, 500] {
      #expect(ResponseFraming.hasBody(status: status, method: .get), "\(status)")
      #expect(!ResponseFraming.hasBody(status: status, method: .head), "\(status)")
    }
    #expect(ResponseFraming.hasBody(status: 200, method: .post))
  }

  @Test func aResponseWithoutABodyDeclaresZeroWhateverItsFieldsSay() {
    let length = { (status: Int, method: HTTPMethod) in
      ResponseFraming.declaredBodyLength(
        status: status, method: method, contentEncoding: "gzip", contentLength: ["512"])
    }
    #expect(length(204, .get) == 0)
    #expect(length(304, .get) == 0)
    #expect(length(200, .head) == 0)
    #expect(length(200, .get) == nil)
  }

  @Test func theLengthIsOneValidContentLength() {
    let length = { (values: [String]) in
      ResponseFraming.declaredBodyLength(
        status: 200, method: .get, contentEncoding: nil, contentLength: values)
    }
    #expect(length(["300"]) == 300)
    #expect(length(["0"]) == 0)
    #expect(length(["12, 12"]) == 12)
    #expect(length(["12", "12"]) == 12)
    #expect(length([]) == nil)
    #expect(length(["12, 13"]) == nil)
    #expect(length(["12", "13"]) == nil)
    #expect(length(["-1"]) == nil)
    #expect(length(["+12"]) == nil)
    #expect(length(["ten"]) == nil)
  }

  @Test func anEncodedBodyDeclaresNoLengthButIdentityIsNoEncoding() {
    let length = { (encoding: String) in
      ResponseFraming.declaredBodyLength(
        status: 200, method: .get, contentEncoding: encoding, contentLength: ["12"])
    }
    #expect(length("gzip") == nil)
    #expect(length("br") == nil)
    #expect(length("identity") == 12)
    #expect(length("IDENTITY") == 12)
  }

  @Test func aResponseDeclaresTheLengthOfItsFields() throws {
    var fields = HTTPFields()
    try fields.append("7", for: "Content-Length")
    #expect(HTTPResponse(status: 200, headerFields: fields).declaredBodyLength(method: .get) == 7)
    #expect(HTTPResponse(status: 200, headerFields: fields).declaredBodyLength(method: .head) == 0)
    try fields.append("7", for: "Content-Length")
    #expect(HTTPResponse(status: 200, headerFields: fields).declaredBodyLength(method: .get) == 7)
    try fields.append("deflate", for: "Content-Encoding")
    #expect(HTTPResponse(status: 200, headerFields: fields).declaredBodyLength(method: .get) == nil)
  }

  @Test func framingIsAmbiguousWithTwoLengthsOrAnUnchunkedTransferEncoding() {
    let ambiguity = { (codings: [String], length: Bool) in
      ResponseFraming.ambiguity(
        status: 200, method: .get, transferEncoding: codings, hasContentLength: length)
    }
    #expect(ambiguity([], true) == nil)
    #expect(ambiguity(["chunked"], false) == nil)
    #expect(ambiguity(["gzip, Chunked"], false) == nil)
    #expect(ambiguity(["gzip", "chunked"], false) == nil)
    #expect(ambiguity(["chunked"], true)?.contains("both") == true)
    #expect(ambiguity(["gzip"], false)?.contains("does not end in chunked") == true)
    #expect(ambiguity(["chunked, gzip"], false) != nil)
    #expect(ambiguity(["chunked;x=1"], false) != nil)
    // Without a body, the fields frame nothing.
    #expect(
      ResponseFraming.ambiguity(
        status: 204, method: .get, transferEncoding: ["chunked"], hasContentLength: true) == nil)
    #expect(
      ResponseFraming.ambiguity(
        status: 200, method: .head, transferEncoding: ["gzip"], hasContentLength: true) == nil)
  }

  @Test func aTransferCodingIsAnyCodingButChunked() {
    #expect(!ResponseFraming.hasTransferCoding([]))
    #expect(!ResponseFraming.hasTransferCoding(["chunked"]))
    #expect(!ResponseFraming.hasTransferCoding(["Chunked", " chunked "]))
    #expect(ResponseFraming.hasTransferCoding(["gzip, chunked"]))
    #expect(ResponseFraming.hasTransferCoding(["endpoint-test", "chunked"]))
    #expect(ResponseFraming.hasTransferCoding(["gzip,chunked"]))
  }
}
