import Foundation
import Testing

@testable import EndpointCurl

@Suite struct RedirectTests {
  let client: CurlHTTPClient

  init() throws {
    client = try CurlHTTPClient()
  }

  @Test func redirectsAreFollowedToTheFinalResponse() async throws {
    let url = try TestServers.httpbin.adding("/redirect/3")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(response.url?.path == "/get")
    #expect(json["url"] as? String != nil)
  }

  @Test func redirectsPastTheLimitFailWithTheChain() async throws {
    let client = try CurlHTTPClient(configuration: .init(redirectPolicy: .follow(upTo: 2)))
    let url = try TestServers.httpbin.adding("/redirect/3")
    let error = try await #require(throws: CurlHTTPClient.TooManyRedirects.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.limit == 2)
    #expect(
      error.chain.map(\.path) == [
        "/redirect/3", "/relative-redirect/2", "/relative-redirect/1", "/get",
      ]
        || error.chain.map(\.path) == ["/redirect/3", "/redirect/2", "/redirect/1", "/get"])
    #expect(error.description.contains("more than 2 redirects"))
  }

  @Test func doNotFollowReturnsTheRedirectWithHeadersAndBody() async throws {
    let client = try CurlHTTPClient(configuration: .init(redirectPolicy: .doNotFollow))
    let url = try TestServers.httpbin.adding("/redirect/1")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 302)
    #expect(response.headerFields["Location"] == "/get")
    let text = String(decoding: try await body.collect(upTo: 1 << 16), as: UTF8.self)
    #expect(text.contains("Redirecting"))
  }

  @Test(arguments: [307, 308])
  func temporaryAndPermanentRedirectsKeepMethodAndBody(status: Int) async throws {
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=\(status)")
    var request = HTTPRequest(method: .post, url: url, body: HTTPBody("the body"))
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.url?.path == "/anything")
    #expect(json["method"] as? String == "POST")
    #expect(json["data"] as? String == "the body")
  }

  @Test func aFileBodyIsSentAgainAfterA307() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("body.txt")
    try Data("from a file".utf8).write(to: file)
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=307")
    let request = HTTPRequest(method: .put, url: url, body: try HTTPBody(contentsOf: file))
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == "PUT")
    #expect(json["data"] as? String == "from a file")
  }

  @Test func aStreamedBodyCannotFollowA307() async throws {
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=307")
    let chunks = AsyncStream<Data> { continuation in
      continuation.yield(Data("streamed".utf8))
      continuation.finish()
    }
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks))
    let error = try await #require(throws: CurlHTTPClient.RedirectBodyNotReplayable.self) {
      try await client.send(request)
    }
    #expect(error.status == 307)
    #expect(error.location.path == "/anything")
  }

  @Test(arguments: [301, 302, 303])
  func postBecomesGetWithoutBody(status: Int) async throws {
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=\(status)")
    var request = HTTPRequest(method: .post, url: url, body: HTTPBody("dropped"))
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == "GET")
    #expect(json["data"] as? String == "")
    let headers = try #require(json["headers"] as? [String: String])
    #expect(headers["Content-Type"] == nil)
  }

  @Test func seeOtherTurnsPutIntoGet() async throws {
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=303")
    let request = HTTPRequest(method: .put, url: url, body: HTTPBody("dropped"))
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == "GET")
  }

  @Test func foundKeepsPutWithItsBody() async throws {
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=302")
    let request = HTTPRequest(method: .put, url: url, body: HTTPBody("kept"))
    let (_, json) = try await sendForJSON(client, request)
    #expect(json["method"] as? String == "PUT")
    #expect(json["data"] as? String == "kept")
  }

  @Test func credentialsAreDroppedWhenTheRedirectLeavesTheOrigin() async throws {
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

  @Test func credentialsAreKeptOnASameOriginRedirect() async throws {
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

  @Test func originComparisonUsesSchemeHostAndDefaultPorts() throws {
    // A unit check of the origin rule behind the two tests above.
    let pairs: [(String, String, Bool)] = [
      ("http://a.test/x", "http://a.test:80/y", true),
      ("https://a.test/x", "https://A.TEST:443/y", true),
      ("http://a.test/x", "https://a.test/x", false),
      ("http://a.test:8080/x", "http://a.test/x", false),
      ("http://a.test/x", "http://b.test/x", false),
    ]
    for (first, second, same) in pairs {
      let response = try redirectOutcome(from: first, to: second)
      #expect(response == same, "\(first) → \(second)")
    }
  }

  private func redirectOutcome(from first: String, to second: String) throws -> Bool {
    try RedirectRule.sameOrigin(#require(URL(string: first)), #require(URL(string: second)))
  }
}
