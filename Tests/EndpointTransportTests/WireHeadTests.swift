import EndpointCore
import EndpointKernel
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// What reaches the wire, read by a server that keeps the exact bytes it receives: both clients
/// send the same head and body for the same request, save the differences "Choosing a
/// transport" lists, which are asserted here by name.
@Suite struct WireHeadTests {
  /// Fields URLSession adds on its own and the curl client does not send (listed in "Choosing
  /// a transport").
  static let urlSessionOnlyLines: Set<String> = ["Accept-Language: en", "Connection: keep-alive"]

  enum BodyKind: String, CaseIterable, Sendable {
    case none, empty, data, file, stream
  }

  static let methods: [HTTPMethod] = [
    .get, .head, .post, .put, .patch, .delete, .options, .trace, "PURGE",
  ]

  /// One request sent by `transport`, and what the server read.
  private func capture(
    _ method: HTTPMethod,
    _ kind: BodyKind,
    over transport: TransportUnderTest,
    server: CaptureServer,
    file: URL,
    userAgent: String? = nil
  ) async throws -> CaptureServer.Request {
    var request = HTTPRequest(
      method: method,
      url: server.url.appending(path: "p").appending(queryItems: [
        URLQueryItem(name: "q", value: "a b")
      ])
    )
    switch kind {
    case .none: break
    case .empty: request.body = HTTPBody(Data())
    case .data: request.body = HTTPBody("hello")
    case .file: request.body = try HTTPBody(contentsOf: file)
    case .stream:
      request.body = HTTPBody(
        AsyncStream<Data> { continuation in
          continuation.yield(Data("hello".utf8))
          continuation.finish()
        },
        length: 5
      )
    }
    try request.headerFields.append("a", for: "X-Rep")
    try request.headerFields.append("b", for: "x-rep")
    try request.headerFields.append("", for: "X-Empty")
    try request.headerFields.append("tab\there", for: "X-Tab")
    if let userAgent { try request.headerFields.append(userAgent, for: "User-Agent") }
    let before = server.requests.count
    let client = try transport.makeClient()
    let (_, body) = try await client.send(request)
    _ = try await body.collect(upTo: 1024)
    let received = Array(server.requests[before...])
    try #require(received.count == 1, "\(transport) put \(received.count) requests on the wire")
    return received[0]
  }

  private func withFile<T>(_ body: (URL) async throws -> T) async throws -> T {
    let file = FileManager.default.temporaryDirectory.appending(path: "wire-\(UUID()).txt")
    try Data("hello".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await body(file)
  }

  @Test(arguments: methods, BodyKind.allCases)
  func bothClientsSendTheSameHead(method: HTTPMethod, kind: BodyKind) async throws {
    // A GET with a body is a listed difference (URLSession refuses it).
    guard method != .get || kind == .none || kind == .empty else { return }
    let server = try CaptureServer()
    defer { server.stop() }
    try await withFile { file in
      let viaURLSession = try await capture(
        method, kind, over: .urlSession, server: server, file: file)
      let viaCurl = try await capture(method, kind, over: .curl, server: server, file: file)
      #expect(viaURLSession.requestLine == viaCurl.requestLine)
      #expect(viaURLSession.requestLine == "\(method) /p?q=a%20b HTTP/1.1")
      let urlSessionLines = Set(viaURLSession.fieldLines)
      #expect(urlSessionLines.isSuperset(of: Self.urlSessionOnlyLines))
      #expect(urlSessionLines.subtracting(Self.urlSessionOnlyLines) == Set(viaCurl.fieldLines))
      #expect(viaCurl.fieldLines.count == Set(viaCurl.fieldLines).count)
      #expect(viaURLSession.framedBody == viaCurl.framedBody)
      // What both send, spelled out.
      for sent in [viaURLSession, viaCurl] {
        #expect(sent.values(of: "User-Agent") == [WireFields.defaultUserAgent])
        #expect(sent.values(of: "X-Rep") == ["a, b"])
        #expect(sent.values(of: "X-Tab") == ["tab\there"])
        #expect(sent.values(of: "Content-Type").isEmpty)
        let bodyless = kind == .none || kind == .empty || method == .head
        if bodyless {
          #expect(
            sent.values(of: "Content-Length")
              == (WireFields.sendsZeroLength(for: method) ? ["0"] : []))
          #expect(sent.framedBody.isEmpty)
        } else {
          #expect(sent.values(of: "Content-Length") == ["5"])
          #expect(sent.body == Array("hello".utf8))
        }
      }
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aCallersUserAgentReplacesTheDefault(transport: TransportUnderTest) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let sent = try await withFile { file in
      try await capture(
        .get, .none, over: transport, server: server, file: file, userAgent: "App/2")
    }
    #expect(sent.values(of: "User-Agent") == ["App/2"])
  }

  @Test func listedDifferenceGetWithABody() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    try await withFile { file in
      await expectInvalidRequest(.unsupported) {
        _ = try await capture(.get, .data, over: .urlSession, server: server, file: file)
      }
      #expect(server.requests.isEmpty)
      let viaCurl = try await capture(.get, .data, over: .curl, server: server, file: file)
      #expect(viaCurl.body == Array("hello".utf8))
    }
  }

  @Test func listedDifferenceStreamOfUnknownLength() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    func request() -> HTTPRequest {
      HTTPRequest(
        method: .post,
        url: server.url,
        body: HTTPBody(
          AsyncStream<Data> { continuation in
            continuation.yield(Data("hello".utf8))
            continuation.finish()
          })
      )
    }
    for transport in TransportUnderTest.allCases {
      let (_, body) = try await transport.makeClient().send(request())
      _ = try await body.collect(upTo: 1024)
    }
    try #require(server.requests.count == 2)
    let (viaURLSession, viaCurl) = (server.requests[0], server.requests[1])
    // URLSession spools the stream and sends its length; curl sends it as it comes, chunked.
    #expect(viaURLSession.values(of: "Content-Length") == ["5"])
    #expect(viaCurl.values(of: "Transfer-Encoding") == ["chunked"])
    #expect(viaURLSession.body == viaCurl.body)
  }

  static let smugglingMethods = [
    "GET /x HTTP/1.1\r\nHost: x\r\n\r\nGET", "GET\r\nX-Injected: 1\r\nX-B:", "", "GET\0X", "G T",
  ]

  /// Sends a good request through a middleware that rewrites its method to `method`.
  private func sendRewritten(
    through client: some HTTPClient,
    method: String,
    url: URL
  ) async throws {
    let rewriting = client.with(
      ClosureMiddleware { request, next in
        var request = request
        request.method = HTTPMethod(rawValue: method)
        return try await next(request)
      })
    _ = try await rewriting.send(HTTPRequest(method: .get, url: url))
  }

  @Test(arguments: TransportUnderTest.allCases, smugglingMethods)
  func aMethodThatIsNotATokenNeverReachesTheWire(
    transport: TransportUnderTest,
    method: String
  ) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let client = try transport.makeClient()
    let bad = HTTPRequest(method: HTTPMethod(rawValue: method), url: server.url)
    await expectInvalidRequest(.method) { _ = try await client.send(bad) }
    // Rewritten by a middleware after the endpoint checked it: refused all the same.
    await expectInvalidRequest(.method) {
      try await sendRewritten(through: client, method: method, url: server.url)
    }
    // The connection carries the next request, and only it, with its answer in step.
    for path in ["one", "two"] {
      let (response, body) = try await client.send(
        HTTPRequest(method: .get, url: server.url.appending(path: path)))
      #expect(response.status == 200)
      #expect(try await body.collect(upTo: 64) == Data("ok".utf8))
    }
    #expect(server.requests.map(\.requestLine) == ["GET /one HTTP/1.1", "GET /two HTTP/1.1"])
    #expect(!server.bytesByConnection.joined().contains(Array("X-Injected".utf8)))
  }

  @Test(arguments: TransportUnderTest.allCases, ["ftp://127.0.0.1/f", "data:text/plain,hi"])
  func onlyHTTPAndHTTPSAreSent(transport: TransportUnderTest, url: String) async throws {
    let client = try transport.makeClient()
    let request = HTTPRequest(method: .get, url: try #require(URL(string: url)))
    await expectInvalidRequest(.url) { _ = try await client.send(request) }
  }

  @Test(
    arguments: TransportUnderTest.allCases,
    [
      "ftp://127.0.0.1:9/file.txt", "file:///etc/passwd", "data:text/plain,hello",
    ])
  func aRedirectToAnotherSchemeIsNotFollowed(
    transport: TransportUnderTest,
    location: String
  ) async throws {
    let server = try CaptureServer { _ in
      .init("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n")
    }
    defer { server.stop() }
    let client = try transport.makeClient()
    let error = await expectInvalidRequest(.url) {
      _ = try await client.send(HTTPRequest(method: .get, url: server.url))
    }
    #expect(error?.reason.contains("not followed") == true)
    #expect(server.requests.count == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func credentialsNeverFollowARedirectToAnotherOrigin(transport: TransportUnderTest) async throws {
    let target = try CaptureServer()
    defer { target.stop() }
    let targetURL = target.url.appending(path: "landing")
    let origin = try CaptureServer { request in
      request.requestLine.hasPrefix("GET /same")
        ? .init("HTTP/1.1 307 Temporary Redirect\r\nLocation: /final\r\nContent-Length: 0\r\n\r\n")
        : request.requestLine.hasPrefix("GET /final")
          ? .ok
          : .init(
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(targetURL.absoluteString)\r\n"
              + "Content-Length: 0\r\n\r\n")
    }
    defer { origin.stop() }
    let policy = RedirectPolicy.followDefault.droppingAcrossOrigins(["X-Tenant"])
    let client = try transport.makeClient(redirects: policy)
    let credentials = [
      ("Authorization", "Bearer canary-1"), ("Cookie", "s=canary-2"),
      ("Proxy-Authorization", "Basic canary-3"),
      ("X-Api-Key", "canary-4"), ("Api-Key", "canary-5"), ("X-Auth-Token", "canary-6"),
      ("X-Tenant", "canary-7"),
    ]
    var fields = try HTTPFields(credentials)
    try fields.append("kept", for: "X-Trace")
    let (response, body) = try await client.send(
      HTTPRequest(method: .get, url: origin.url.appending(path: "away"), headerFields: fields))
    _ = try await body.collect(upTo: 64)
    #expect(response.status == 200)
    try #require(target.requests.count == 1)
    let landed = target.requests[0]
    for (name, _) in credentials {
      #expect(landed.values(of: name).isEmpty, "\(name) reached another origin")
    }
    #expect(landed.values(of: "X-Trace") == ["kept"])
    for secret in (1...7).map({ "canary-\($0)" }) {
      #expect(!target.bytesByConnection.joined().contains(Array(secret.utf8)))
    }
    // Within the origin they are kept.
    let (sameResponse, sameBody) = try await client.send(
      HTTPRequest(method: .get, url: origin.url.appending(path: "same"), headerFields: fields))
    _ = try await sameBody.collect(upTo: 64)
    #expect(sameResponse.status == 200)
    let final = try #require(origin.requests.last)
    #expect(final.requestLine == "GET /final HTTP/1.1")
    #expect(final.values(of: "X-Api-Key") == ["canary-4"])
    #expect(final.values(of: "Authorization") == ["Bearer canary-1"])
  }
}
