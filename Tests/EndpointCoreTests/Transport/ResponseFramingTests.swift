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
}
