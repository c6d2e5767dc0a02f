import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct HTTPResponseTests {
  @Test(arguments: [
    ("application/json", "application/json"),
    ("Application/JSON; charset=UTF-8", "application/json"),
    ("  text/html ;charset=utf-8", "text/html"),
    ("text/plain;", "text/plain"),
  ])
  func mediaTypeIsLowercasedWithoutParameters(_ header: String, _ expected: String) throws {
    #expect(try response(200, [("Content-Type", header)]).mediaType == expected)
  }

  @Test func mediaTypeIsNilWithoutOrWithAnEmptyContentType() throws {
    #expect(try response(200).mediaType == nil)
    #expect(try response(200, [("Content-Type", "")]).mediaType == nil)
    #expect(try response(200, [("Content-Type", " ; charset=utf-8")]).mediaType == nil)
  }

  @Test func theFirstOfSeveralContentTypesCounts() throws {
    let head = try response(
      200, [("Content-Type", "text/plain; charset=iso-8859-1"), ("Content-Type", "text/html")])
    #expect(head.mediaType == "text/plain")
    #expect(head.charset == "iso-8859-1")
  }

  @Test(arguments: [
    ("text/plain; charset=utf-8", "utf-8"),
    ("text/plain; CHARSET=UTF-8", "utf-8"),
    ("text/plain;charset=\"ISO-8859-1\"", "iso-8859-1"),
    ("text/plain; format=flowed; charset=utf-16 ", "utf-16"),
    ("multipart/mixed; boundary=x; charset = us-ascii", "us-ascii"),
  ])
  func charsetIsReadFromContentType(_ header: String, _ expected: String) throws {
    #expect(try response(200, [("content-type", header)]).charset == expected)
  }

  @Test(arguments: [
    "text/plain", "text/plain; format=flowed", "text/plain; charset=", "text/plain; charset",
  ])
  func charsetIsNilWhenNotNamed(_ header: String) throws {
    #expect(try response(200, [("Content-Type", header)]).charset == nil)
  }

  @Test func descriptionHasTheReasonPhrase() throws {
    #expect(try response(404).description == "404 Not Found")
    #expect(try response(200).description == "200 OK")
    #expect(try response(599).description == "599")
    #expect(HTTPResponse.reasonPhrase(for: 429) == "Too Many Requests")
    #expect(HTTPResponse.reasonPhrase(for: 999) == "")
  }

  @Test func responseIsAPlainValue() throws {
    let url = try makeURL("https://a.example/x")
    var head = HTTPResponse(status: 201, url: url)
    #expect(head.headerFields.isEmpty)
    try head.headerFields.append("1", for: "X")
    #expect(head == HTTPResponse(status: 201, headerFields: try HTTPFields([("X", "1")]), url: url))
    #expect(head.url == url)
  }
}

@Suite struct HTTPRequestTests {
  @Test func requestDefaultsToNoFieldsNoBodyNoTimeout() throws {
    let url = try makeURL("https://a.example/x?y=1")
    let request = HTTPRequest(method: .get, url: url)
    #expect(request.headerFields.isEmpty)
    #expect(request.body == nil)
    #expect(request.timeout == nil)
    #expect(request.description == "GET https://a.example/x?y=1")
  }

  @Test func requestDescriptionHidesURLCredentials() throws {
    let request = HTTPRequest(
      method: .get, url: try makeURL("https://me:pw@a.example/x?token=abc&page=1"))
    #expect(request.description == "GET https://<redacted>@a.example/x?token=<redacted>&page=1")
  }

  @Test func requestIsMutable() throws {
    var request = HTTPRequest(method: .post, url: try makeURL("https://a.example"))
    try request.headerFields.set("1", for: "X")
    request.body = HTTPBody("hi")
    request.timeout = .seconds(3)
    #expect(request.headerFields["x"] == "1")
    #expect(request.body?.data == bytes("hi"))
    #expect(request.timeout == .seconds(3))
  }
}
