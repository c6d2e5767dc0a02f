import EndpointCore
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointTransport

/// `HTTPRequest.hostField` and `requestTarget` are what both clients send, byte for byte: a
/// signing middleware (SigV4 and the like) signs these values, and a server that recomputes the
/// signature from the wire must see the same ones.
@Suite struct WireTargetTests {
  /// Paths and queries as a signer leaves them: percent-encoded in canonical form, reserved
  /// characters encoded inside a segment, `~` and other unreserved characters as they are.
  static let targets = [
    "/",
    "/bucket",
    "/bucket/notes/hello%20world%2B%C3%BC~.txt",
    "/bucket/a%2Fb/c%3Bd%3De%40f",
    "/bucket?list-type=2&continuation-token=a%2Bb%2F%3D%3D&max-keys=2",
    "/bucket/key?uploads=",
    "/bucket/key?partNumber=1&uploadId=x%20y%2Bz",
    "/p%25q?x=%25",
  ]

  @Test(arguments: TransportUnderTest.allCases, targets)
  func theRequestLineAndHostAreTheRequestsOwn(transport: TransportUnderTest, target: String)
    async throws
  {
    let server = try CaptureServer()
    defer { server.stop() }
    let port = try #require(server.url.port)
    // By address and by name: the Host field follows the URL, not the resolved address.
    for host in ["127.0.0.1", "localhost"] {
      let url = try #require(URL(string: "http://\(host):\(port)\(target)"))
      let request = HTTPRequest(method: .get, url: url)
      let before = server.requests.count
      let client = try transport.makeClient()
      let (_, body) = try await client.send(request)
      _ = try await body.collect(upTo: 1024)
      let received = Array(server.requests[before...])
      try #require(received.count == 1, "\(transport) put \(received.count) requests on the wire")
      #expect(request.requestTarget == target)
      #expect(received[0].requestLine == "GET \(request.requestTarget) HTTP/1.1")
      #expect(received[0].values(of: "Host") == [try #require(request.hostField)])
      #expect(request.hostField == "\(host):\(port)")
    }
  }

  /// Paths with dot segments: both transports remove `.` and `..` segments before they send
  /// (libcurl does, under URLSession on Linux too), and `requestTarget` says so; their
  /// percent-encoded forms and segments that only start with a dot are sent as they are.
  static let dotTargets: [(path: String, sent: String)] = [
    ("/a/./b/../c", "/a/c"),
    ("/a/b/..", "/a/"),
    ("/a/b/.", "/a/b/"),
    ("/..", "/"),
    ("/../../x", "/x"),
    ("/a//../b", "/a/b"),
    ("/a/.b/..c/.../", "/a/.b/..c/.../"),
    ("/a/%2e%2E/c/%2E", "/a/%2e%2E/c/%2E"),
    ("/a/../b?x=/../y&z=.", "/b?x=/../y&z=."),
  ]

  @Test(arguments: TransportUnderTest.allCases, dotTargets)
  func dotSegmentsAreRemovedAsTheRequestTargetSays(
    transport: TransportUnderTest,
    target: (path: String, sent: String)
  ) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(target.path)"))
    let request = HTTPRequest(method: .get, url: url)
    let (_, body) = try await transport.makeClient().send(request)
    _ = try await body.collect(upTo: 1024)
    try #require(server.requests.count == 1)
    #expect(server.requests[0].requestLine == "GET \(target.sent) HTTP/1.1")
    #expect(request.requestTarget == target.sent)
  }

  /// An IPv6 literal host: in brackets in the `Host` field, as `hostField` says, and the same
  /// head from both clients. URLSession on Linux refuses such URLs (a listed difference), which
  /// is recorded as a known issue there, never counted as a pass.
  @Test func anIPv6LiteralHostIsSentInBrackets() async throws {
    // A machine without an IPv6 loopback address cannot run this: its error fails the test.
    let server = try CaptureServer(ipv6: true)
    defer { server.stop() }
    func request(_ url: URL) throws -> HTTPRequest {
      var request = HTTPRequest(
        method: .put,
        url: url.appending(path: "v6").appending(queryItems: [.init(name: "q", value: "1")]),
        body: HTTPBody("hello"))
      try request.headerFields.append("v", for: "X-Trace")
      return request
    }
    #expect(try request(server.url).hostField == "[::1]:\(server.port)")
    let (_, body) = try await TransportUnderTest.curl.makeClient().send(try request(server.url))
    _ = try await body.collect(upTo: 64)
    try #require(server.requests.count == 1)
    let viaCurl = server.requests[0]
    #expect(viaCurl.requestLine == "PUT /v6?q=1 HTTP/1.1")
    #expect(viaCurl.values(of: "Host") == ["[::1]:\(server.port)"])
    #expect(viaCurl.body == Array("hello".utf8))
    try await withKnownIssue(
      "URLSession on Linux refuses a URL with an IPv6 literal host (URLError -1000)"
    ) {
      let parity = try await WireParity.capture(on: server, request)
      parity.expectSame()
    } when: {
      Hop.refusesIPv6Literals
    }
  }

  /// Where URLSession refuses an IPv6 literal host, the client says so before any byte, with
  /// the way out, rather than Foundation's bare "unsupported URL".
  @Test func urlSessionRefusesAnIPv6LiteralHostClearly() async throws {
    let server = try CaptureServer(ipv6: true)
    defer { server.stop() }
    let client = TransportUnderTest.urlSession
    guard Hop.refusesIPv6Literals else {
      let (response, _) = try await client.makeClient().send(
        HTTPRequest(method: .get, url: server.url))
      #expect(response.status == 200)
      return
    }
    let error = await expectInvalidRequest(.unsupported) {
      _ = try await client.makeClient().send(HTTPRequest(method: .get, url: server.url))
    }
    #expect(error?.description.contains("IPv6") == true)
    #expect(error?.description.contains("CurlHTTPClient") == true)
    #expect(server.requests.isEmpty)
  }
}
