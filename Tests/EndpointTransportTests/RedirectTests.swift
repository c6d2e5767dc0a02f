import Foundation
import Testing

@testable import EndpointTransport

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct RedirectTests {
  @Test(arguments: TransportUnderTest.allCases)
  func redirectsAreFollowedToTheFinalResponse(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/redirect/3")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(response.url?.path == "/get")
    #expect(json["url"] as? String != nil)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func redirectsPastTheLimitFailWithTheChain(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(redirects: .follow(upTo: 2))
    let url = try TestServers.httpbin.adding("/redirect/3")
    let error = try await #require(throws: TransportFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.kind == .tooManyRedirects)
    #expect(error.limit == 2)
    #expect(
      error.redirects.map(\.path) == [
        "/redirect/3", "/relative-redirect/2", "/relative-redirect/1", "/get",
      ]
        || error.redirects.map(\.path) == ["/redirect/3", "/redirect/2", "/redirect/1", "/get"])
    #expect(error.description.contains("more than 2 redirects"))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func doNotFollowReturnsTheRedirectWithHeadersAndBody(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(redirects: .doNotFollow)
    let url = try TestServers.httpbin.adding("/redirect/1")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 302)
    #expect(response.headerFields["Location"] == "/get")
    let text = String(decoding: try await body.collect(upTo: 1 << 16), as: UTF8.self)
    #expect(text.contains("Redirecting"))
  }

  @Test(arguments: TransportUnderTest.allCases, [307, 308])
  func temporaryAndPermanentRedirectsKeepMethodAndBody(transport: TransportUnderTest, status: Int)
    async throws
  {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=\(status)")
    var request = HTTPRequest(method: .post, url: url, body: HTTPBody("the body"))
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.url?.path == "/anything")
    #expect(json["method"] as? String == "POST")
    #expect(json["data"] as? String == "the body")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aFileBodyIsSentAgainAfterA307(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("body.txt")
      try Data("from a file".utf8).write(to: file)
      let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=307")
      let request = HTTPRequest(method: .put, url: url, body: try HTTPBody(contentsOf: file))
      let (_, json) = try await sendForJSON(client, request)
      #expect(json["method"] as? String == "PUT")
      #expect(json["data"] as? String == "from a file")
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aStreamedBodyCannotFollowA307(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=307")
    let chunks = AsyncStream<Data> { continuation in
      continuation.yield(Data("streamed".utf8))
      continuation.finish()
    }
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks))
    let error = try await #require(throws: TransportFailure.self) {
      try await client.send(request)
    }
    #expect(error.kind == .redirectBodyNotReplayable)
    #expect(error.description.contains("307 redirect to"))
    #expect(error.redirects.last?.path == "/anything")
  }

  @Test(arguments: TransportUnderTest.allCases, [301, 302, 303])
  func postBecomesGetWithoutBody(transport: TransportUnderTest, status: Int) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=\(status)")
    var request = HTTPRequest(method: .post, url: url, body: HTTPBody("dropped"))
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == "GET")
    #expect(json["data"] as? String == "")
    let headers = try #require(json["headers"] as? [String: String])
    #expect(headers["Content-Type"] == nil)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func seeOtherTurnsPutIntoGet(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=303")
    let request = HTTPRequest(method: .put, url: url, body: HTTPBody("dropped"))
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == "GET")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func foundKeepsPutWithItsBody(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=302")
    let request = HTTPRequest(method: .put, url: url, body: HTTPBody("kept"))
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == "PUT")
    #expect(json["data"] as? String == "kept")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func credentialsAreDroppedWhenTheRedirectLeavesTheOrigin(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    let target = try TestServers.httpbinAlt.adding("/headers").absoluteString
    let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
    let url = try TestServers.httpbin.adding("/redirect-to?url=\(encoded)")
    var request = HTTPRequest(method: .get, url: url)
    try request.headerFields.append("Bearer secret", for: "Authorization")
    try request.headerFields.append("session=secret", for: "Cookie")
    try request.headerFields.append("Basic c2VjcmV0", for: "Proxy-Authorization")
    try request.headerFields.append("kept", for: "X-Custom")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.url?.host == "localhost")
    let headers = try #require(json["headers"] as? [String: String])
    #expect(headers["Authorization"] == nil)
    #expect(headers["Cookie"] == nil)
    #expect(headers["Proxy-Authorization"] == nil)
    #expect(headers["X-Custom"] == "kept")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func credentialsAreKeptOnASameOriginRedirect(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/redirect-to?url=/headers")
    var request = HTTPRequest(method: .get, url: url)
    try request.headerFields.append("Bearer secret", for: "Authorization")
    try request.headerFields.append("session=secret", for: "Cookie")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.url?.path == "/headers")
    let headers = try #require(json["headers"] as? [String: String])
    #expect(headers["Authorization"] == "Bearer secret")
    #expect(headers["Cookie"] == "session=secret")
  }
}
