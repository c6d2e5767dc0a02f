import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct HTTPClientTests {
  @Test func callSendsTheResolvedRequestAndParsesTheBody() async throws {
    let client = StubClient(status: 200, body: HTTPBody("hello"))
    let endpoint = Endpoint(
      .post, url: try makeURL("https://a.example/x"), query: [.init(name: "q", value: "a b")],
      headers: ["X-Trace": "1"], payload: .text("ping"), parser: .string)
    let value = try await client.call(endpoint)
    #expect(value == "hello")
    let sent = try #require(client.requests.first)
    #expect(client.requests.count == 1)
    #expect(sent.method == .post)
    #expect(sent.url.absoluteString == "https://a.example/x?q=a%20b")
    #expect(sent.headerFields["x-trace"] == "1")
    #expect(sent.headerFields["Accept"] == "text/plain")
    #expect(sent.body?.data == bytes("ping"))
  }

  @Test func withResponseReturnsTheHeadToo() async throws {
    let client = StubClient(status: 200, fields: [("ETag", "\"v1\"")], body: HTTPBody("x"))
    let (value, head) = try await client.call(
      Endpoint(url: try makeURL("https://a.example"), parser: .string).withResponse())
    #expect(value == "x")
    #expect(head.headerFields["etag"] == "\"v1\"")
    #expect(head.status == 200)
  }

  @Test func rejectedStatusIsAnUnexpectedResponseWithTheRequest() async throws {
    let client = StubClient(status: 404, fields: [("X", "1")], body: HTTPBody("missing"))
    let endpoint = Endpoint(
      .delete, url: try makeURL("https://a.example/items/9"), query: [.init(name: "v", value: "2")],
      parser: .void())
    let error = try #require(
      await #expect(throws: UnexpectedResponse.self) {
        try await client.call(endpoint)
      })
    #expect(error.method == .delete)
    #expect(error.url.absoluteString == "https://a.example/items/9?v=2")
    #expect(error.status == 404)
    #expect(error.headerFields["x"] == "1")
    #expect(error.body == bytes("missing"))
  }

  @Test func invalidEndpointNeverReachesTheClient() async throws {
    let client = StubClient(status: 200)
    let endpoint = Endpoint(
      .get, url: try makeURL("https://a.example"), headers: ["X": "\n"], parser: .void())
    await expectInvalidRequest(.headerField) { try await client.call(endpoint) }
    #expect(client.requests.isEmpty)
  }

  @Test func bodyLimitStopsALargeBody() async throws {
    let client = StubClient(status: 200, body: HTTPBody(Data(count: 100)))
    let endpoint = Endpoint(url: try makeURL("https://a.example"), parser: .data)
    await #expect(throws: TransportFailure.responseTooLarge(limit: 99, received: 100)) {
      try await client.call(endpoint, bodyLimit: 99)
    }
    #expect(try await client.call(endpoint, bodyLimit: 100).count == 100)
  }

  @Test func bodyLimitAppliesToStreamsAsTheyArrive() async throws {
    let client = StubClient { request in
      (HTTPResponse(status: 200, url: request.url), HTTPBody(Chunks(["aaaa", "bbbb", "cccc"])))
    }
    let endpoint = Endpoint(url: try makeURL("https://a.example"), parser: .data)
    let error = try await #require(throws: TransportFailure.self) {
      try await client.call(endpoint, bodyLimit: 10)
    }
    #expect(error.kind == .responseTooLarge)
    #expect(error.byteCount == 12)
    #expect(try await client.call(endpoint, bodyLimit: 12) == bytes("aaaabbbbcccc"))
  }

  @Test func defaultBodyLimitIs32MiB() {
    #expect(StubClient.defaultBodyLimit == 32 * 1024 * 1024)
  }

  @Test func clientErrorsPassThrough() async throws {
    let client = StubClient { _ in throw TestFailure(message: "offline") }
    await #expect(throws: TestFailure(message: "offline")) {
      try await client.call(Endpoint(.get, url: try makeURL("https://a.example"), parser: .void()))
    }
  }
}

@Suite struct MiddlewareClientTests {
  private struct Tagging: Middleware {
    let tag: String
    let log: EventLog

    func intercept(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
      log.record("\(tag) request")
      var request = request
      try request.headerFields.append(tag, for: "X-Seen")
      var (response, body) = try await next(request)
      log.record("\(tag) response")
      try response.headerFields.append(tag, for: "X-Back")
      return (response, body)
    }
  }

  private struct ShortCircuit: Middleware {
    func intercept(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
      (HTTPResponse(status: 203, url: request.url), HTTPBody("cached"))
    }
  }

  private struct RetryOnce: Middleware {
    func intercept(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
      let first = try await next(request)
      guard first.0.status == 503 else { return first }
      return try await next(request)
    }
  }

  private func countingClient(log: EventLog) -> StubClient {
    StubClient { request in
      log.record("base \(request.headerFields.values(for: "X-Seen").joined(separator: ","))")
      let attempt = log.events.filter { $0.hasPrefix("base") }.count
      return (HTTPResponse(status: attempt == 1 ? 503 : 200), HTTPBody("attempt \(attempt)"))
    }
  }

  @Test func firstMiddlewareSeesTheRequestFirstAndTheResponseLast() async throws {
    let log = EventLog()
    let base = StubClient { request in
      log.record("base \(request.headerFields.values(for: "X-Seen").joined(separator: ","))")
      return (HTTPResponse(status: 200), .empty)
    }
    let client = base.with(Tagging(tag: "a", log: log), Tagging(tag: "b", log: log))
    let (response, _) = try await client.send(
      HTTPRequest(method: .get, url: try makeURL("https://a.example")))
    #expect(log.events == ["a request", "b request", "base a,b", "b response", "a response"])
    #expect(response.headerFields.values(for: "X-Back") == ["b", "a"])
    #expect(client.middleware.count == 2)
  }

  @Test func nestedWithPutsTheLaterMiddlewareOutside() async throws {
    let log = EventLog()
    let base = StubClient(status: 200)
    let client = base.with(Tagging(tag: "inner", log: log)).with(Tagging(tag: "outer", log: log))
    _ = try await client.send(HTTPRequest(method: .get, url: try makeURL("https://a.example")))
    #expect(log.events.first == "outer request")
    #expect(log.events.last == "outer response")
  }

  @Test func middlewareCanAnswerWithoutCallingNext() async throws {
    let base = StubClient(status: 500)
    let client = base.with([ShortCircuit()])
    let value = try await client.call(
      Endpoint(url: try makeURL("https://a.example"), parser: ResponseParser<String>.string))
    #expect(value == "cached")
    #expect(base.requests.isEmpty)
  }

  @Test func middlewareCanCallNextTwice() async throws {
    let log = EventLog()
    let base = countingClient(log: log)
    let client = base.with(
      Tagging(tag: "outer", log: log), RetryOnce(), Tagging(tag: "inner", log: log))
    let value = try await client.call(
      Endpoint(url: try makeURL("https://a.example"), parser: ResponseParser<String>.string))
    #expect(value == "attempt 2")
    #expect(base.requests.count == 2)
    #expect(
      log.events == [
        "outer request", "inner request", "base outer,inner", "inner response",
        "inner request", "base outer,inner", "inner response", "outer response",
      ])
  }

  @Test func noMiddlewareIsTheBaseClient() async throws {
    let base = StubClient(status: 204)
    let client = base.with()
    let (response, _) = try await client.send(
      HTTPRequest(method: .get, url: try makeURL("https://a.example")))
    #expect(response.status == 204)
    #expect(base.requests.count == 1)
  }

  @Test func middlewareErrorsPassThrough() async throws {
    struct Failing: Middleware {
      func intercept(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
        throw TestFailure(message: "denied")
      }
    }
    let base = StubClient(status: 200)
    await #expect(throws: TestFailure(message: "denied")) {
      try await base.with(Failing()).send(
        HTTPRequest(method: .get, url: try makeURL("https://a.example")))
    }
    #expect(base.requests.isEmpty)
  }
}
