import EndpointCore
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// A caller's `Expect: 100-continue` (RFC 9110, section 10.1.1), the same on both clients: the
/// body waits for the server's `100 Continue` (about a second at most), is sent once when it
/// comes or when the wait ends, and never follows a final answer onto the connection, where
/// the server would read it as another request.
@Suite struct ExpectContinueTests {
  /// A body a server that answered early would read as a request of its own.
  static let smuggled = Array(
    "GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".utf8)

  /// The kinds of request body: in memory, a file, a stream of declared length.
  enum Body: String, CaseIterable, Sendable {
    case data, file, stream
  }

  /// A `POST` of `smuggled` (as `kind`, read from `file` for a file) that asks the server to
  /// confirm before the body is sent.
  static func request(to url: URL, body kind: Body = .data, file: URL? = nil) throws
    -> HTTPRequest
  {
    let body: HTTPBody =
      switch kind {
      case .data: HTTPBody(Data(smuggled))
      case .file: try HTTPBody(contentsOf: try #require(file))
      case .stream:
        HTTPBody(
          AsyncStream<Data> { continuation in
            continuation.yield(Data(smuggled))
            continuation.finish()
          },
          length: Int64(smuggled.count))
      }
    var request = HTTPRequest(method: .post, url: url.appending(path: "upload"), body: body)
    try request.headerFields.append("100-continue", for: "Expect")
    try request.headerFields.append("text/plain", for: "Content-Type")
    return request
  }

  /// Sends `request(to:body:file:)` once over `client` and returns the response and its body.
  static func send(
    over client: any HTTPClient,
    to server: CaptureServer,
    body kind: Body = .data,
    file: URL? = nil
  ) async throws -> (HTTPResponse, Data) {
    let request = try request(to: server.url, body: kind, file: file)
    let (response, body) = try await client.send(request)
    return (response, try await body.collect(upTo: 1024))
  }

  /// A file holding `smuggled`, deleted by `body`'s end.
  static func withBodyFile<T>(_ body: (URL) async throws -> T) async throws -> T {
    let file = FileManager.default.temporaryDirectory.appending(path: "expect-\(UUID())")
    try Data(smuggled).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await body(file)
  }

  @Test(arguments: Body.allCases)
  func aServerThatAnswersContinueGetsTheBodyOnceAndTheSameHead(kind: Body) async throws {
    let server = try CaptureServer(afterHead: { _ in .continue100 })
    defer { server.stop() }
    let heads = try await Self.withBodyFile { file in
      var heads: [CaptureServer.Request] = []
      for transport in TransportUnderTest.allCases {
        let before = server.requests.count
        let (response, body) = try await Self.send(
          over: transport.makeClient(), to: server, body: kind, file: file)
        #expect(response.status == 200, "\(transport)")
        #expect(body == Data("ok".utf8), "\(transport)")
        let sent = Array(server.requests[before...])
        try #require(sent.count == 1, "\(transport) put \(sent.count) requests on the wire")
        heads.append(sent[0])
      }
      return heads
    }
    WireParity(urlSession: heads[0], curl: heads[1]).expectSame()
    for sent in heads {
      #expect(sent.values(of: "Expect") == ["100-continue"])
      #expect(sent.body == Self.smuggled)
    }
    #expect(!server.requests.contains { $0.requestLine.contains("/smuggled") })
  }

  /// A final status instead of `100 Continue`, from a server that reads no body and reads
  /// whatever comes next on the connection as the next request (a careful server closes the
  /// connection or reads the body to discard it; the client must not rely on either).
  @Test(arguments: TransportUnderTest.allCases, [401, 413])
  func aFinalAnswerBeforeTheBodyGetsNoBodyOnTheConnection(
    transport: TransportUnderTest,
    status: Int
  ) async throws {
    let server = try CaptureServer(afterHead: { _ in
      .final(.init("HTTP/1.1 \(status) No\r\nContent-Length: 2\r\n\r\nno"))
    })
    defer { server.stop() }
    let client = try transport.makeClient()
    let (response, body) = try await Self.send(over: client, to: server)
    #expect(response.status == status)
    #expect(body == Data("no".utf8))
    // A request that follows on the same client goes out clean.
    let (next, nextBody) = try await client.send(
      HTTPRequest(method: .get, url: server.url.appending(path: "next")))
    _ = try await nextBody.collect(upTo: 64)
    #expect(next.status == status)
    // Whatever the client does with the connection, the body never reaches it: give a late
    // body time to arrive.
    try await Task.sleep(for: .milliseconds(1500))
    let sent = server.requests
    #expect(sent.map(\.requestLine) == ["POST /upload HTTP/1.1", "GET /next HTTP/1.1"])
    // The connection whose declared body never came is not used again.
    #expect(sent.count == 2 && sent[0].connection != sent[1].connection)
    let reached = server.bytesByConnection.contains { $0.contains(Self.smuggled) }
    #expect(!reached, "the body reached the connection")
  }

  /// `417 Expectation Failed`: the caller gets it (to send the request again without the
  /// expectation, as RFC 9110 advises), and nothing follows on the connection. The curl
  /// client's libcurl would send the request again itself on that connection, the caller's
  /// `Expect` still on it; the client stops it, so the `417` comes without its body, which
  /// libcurl skips.
  @Test(arguments: TransportUnderTest.allCases)
  func anExpectationFailedComesBackAndNothingFollowsOnTheConnection(
    transport: TransportUnderTest
  ) async throws {
    let server = try CaptureServer(afterHead: { _ in
      .final(.init("HTTP/1.1 417 Expectation Failed\r\nContent-Length: 2\r\n\r\nno"))
    })
    defer { server.stop() }
    let client = try transport.makeClient()
    let (response, _) = try await Self.send(over: client, to: server)
    #expect(response.status == 417)
    try await Task.sleep(for: .milliseconds(1500))
    let nothingFollowed = {
      #expect(server.requests.map(\.requestLine) == ["POST /upload HTTP/1.1"])
      let reached = server.bytesByConnection.contains { $0.contains(Self.smuggled) }
      #expect(!reached, "the body reached the connection")
    }
    guard transport == .urlSession else {
      nothingFollowed()
      // The connection whose declared body never came is not used again.
      let (_, nextBody) = try await client.send(
        HTTPRequest(method: .get, url: server.url.appending(path: "next")))
      _ = try await nextBody.collect(upTo: 64)
      let sent = server.requests
      #expect(sent.count == 2 && sent[0].connection != sent[1].connection)
      return
    }
    // Foundation's libcurl sends the request again on the same connection, the caller's
    // `Expect` still on it, before the task completes (so in every run), and in about half the
    // runs the body after the second `417` ("URLSession on Linux").
    withKnownIssue("URLSession on Linux: a 417 is followed by the request and its body") {
      nothingFollowed()
    }
  }

  /// A server that never answers `100 Continue`: the client sends the body when its wait ends,
  /// and the request completes.
  @Test(arguments: TransportUnderTest.allCases, Body.allCases)
  func aServerThatNeverAnswersContinueGetsTheBodyAfterTheWait(
    transport: TransportUnderTest,
    kind: Body
  ) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let (response, body) = try await Self.withBodyFile { file in
      try await Self.send(over: transport.makeClient(), to: server, body: kind, file: file)
    }
    #expect(response.status == 200)
    #expect(body == Data("ok".utf8))
    let sent = server.requests
    try #require(sent.count == 1, "\(sent.map(\.requestLine))")
    #expect(sent[0].values(of: "Expect") == ["100-continue"])
    #expect(sent[0].body == Self.smuggled)
    // The client waited for a `100 Continue` before sending the body (about a second; a lower
    // bound, which load only lengthens).
    #expect(sent[0].bodyReceived - sent[0].headReceived > .milliseconds(500))
  }

  /// Interim heads before the final one, asked for or not (`100 Continue`, `103 Early Hints`),
  /// are skipped on both clients: the final head is the response, with its own fields only.
  @Test(arguments: TransportUnderTest.allCases)
  func interimHeadsBeforeTheFinalOneAreSkipped(transport: TransportUnderTest) async throws {
    let server = try CaptureServer { _ in
      .init(
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n"
          + "HTTP/1.1 200 OK\r\nX-Final: 1\r\nContent-Length: 2\r\n\r\nok")
    }
    defer { server.stop() }
    let (response, body) = try await transport.makeClient().send(
      HTTPRequest(method: .get, url: server.url))
    #expect(response.status == 200)
    #expect(response.headerFields["X-Final"] == "1")
    #expect(response.headerFields["Link"] == nil)
    #expect(try await body.collect(upTo: 64) == Data("ok".utf8))
  }

  /// An interim head and then the end of the connection: no response, an error on both
  /// clients.
  @Test(arguments: TransportUnderTest.allCases)
  func anInterimHeadAloneIsAnError(transport: TransportUnderTest) async throws {
    let server = try CaptureServer { _ in .init("HTTP/1.1 100 Continue\r\n\r\n", closes: true) }
    defer { server.stop() }
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let error = await #expect(throws: (any Error).self) {
      let (_, body) = try await client.send(try Self.request(to: server.url))
      _ = try await body.collect(upTo: 64)
    }
    // curl: "the connection was lost before the response was complete"; URLSession: "the
    // server's response could not be read".
    #expect(String(describing: error).contains("/upload"), "\(String(describing: error))")
  }
}
