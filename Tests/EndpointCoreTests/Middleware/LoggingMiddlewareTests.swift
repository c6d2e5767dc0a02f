import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A logging middleware whose entries land in `entries`.
func logging(
  into entries: Recorder<[HTTPLogEntry]>,
  redaction: Redaction = .standard,
  includesHeaders: Bool = false,
  bodyPreviewLimit: Int? = nil
) -> LoggingMiddleware {
  LoggingMiddleware(
    redaction: redaction,
    includesHeaders: includesHeaders,
    bodyPreviewLimit: bodyPreviewLimit,
    sink: { entry in entries.update { $0.append(entry) } }
  )
}

@Suite struct LoggingMiddlewareTests {
  @Test func inMemoryResponseIsLoggedOnceWithStatusAndBytes() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let client = ScriptedClient(status: 200, body: "hello").with(logging(into: entries))
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    let entry = try #require(entries.value.first)
    #expect(entries.value.count == 1)
    #expect(entry.method == .get)
    #expect(entry.url == "https://api.example.com/items")
    #expect(entry.status == 200)
    #expect(entry.bytes == 5)
    #expect(entry.failure == nil && !entry.isAbandoned)
    #expect(entry.duration >= .zero)
    #expect(entry.description.hasPrefix("GET https://api.example.com/items → 200 OK, 5 bytes in "))
    #expect(entry.description.hasSuffix(" ms"))
    #expect(!entry.description.contains("\n"))
  }

  @Test func streamedBodyIsLoggedWhenTheCallerReachesItsEnd() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let chunks = RecordingChunks(["abc", "defg", "hi"])
    let client = ScriptedClient { _, _ in (HTTPResponse(status: 200), chunks.body) }
      .with(logging(into: entries))
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(entries.value.isEmpty)
    #expect(body.length == 9)
    var iterator = body.makeAsyncIterator()
    _ = try await iterator.next()
    #expect(entries.value.isEmpty)
    while try await iterator.next() != nil {}
    #expect(entries.value.map(\.bytes) == [9])
    #expect(entries.value.map(\.failure) == [nil])
    #expect(entries.value.map(\.isAbandoned) == [false])
  }

  @Test func streamedBodyReleasedUnreadIsLoggedAsAbandoned() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let middleware = logging(into: entries)
    let stub = ScriptedClient { _, _ in
      (HTTPResponse(status: 200), RecordingChunks(["abc", "def"]).body)
    }
    try await readFirstChunkAndDrop(middleware, stub, chunks: 0)
    try await readFirstChunkAndDrop(middleware, stub, chunks: 1)
    #expect(entries.value.map(\.isAbandoned) == [true, true])
    #expect(entries.value.map(\.failure) == [nil, nil])
    #expect(entries.value.map(\.bytes) == [0, 3])
    #expect(entries.value.first?.description.contains("0 bytes") == true)
    #expect(entries.value.first?.description.contains("released before its end") == true)
  }

  private func readFirstChunkAndDrop(
    _ middleware: LoggingMiddleware,
    _ stub: ScriptedClient,
    chunks: Int
  ) async throws {
    let (_, body) = try await middleware.intercept(
      HTTPRequest(method: .get, url: testURL()),
      next: { try await stub.send($0) }
    )
    var iterator = body.makeAsyncIterator()
    for _ in 0..<chunks { _ = try await iterator.next() }
  }

  @Test func bodyFailureIsLoggedWithTheBytesReadAndRethrown() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let chunks = RecordingChunks(["abcd"], failingWith: TestError(name: "connection lost"))
    let client = ScriptedClient { _, _ in (HTTPResponse(status: 200), chunks.body) }
      .with(logging(into: entries))
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: testURL()))
    await #expect(throws: TestError(name: "connection lost")) {
      _ = try await body.collect(upTo: 100)
    }
    let entry = try #require(entries.value.first)
    #expect(entry.status == 200)
    #expect(entry.bytes == 4)
    #expect(entry.failure == String(describing: TestError(name: "connection lost")))
    #expect(!entry.isAbandoned)
    #expect(entry.description.contains("then the body failed"))
  }

  @Test func transportErrorIsLoggedAndRethrown() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let client = ScriptedClient { _, _ in throw TestError(name: "refused") }
      .with(logging(into: entries))
    await #expect(throws: TestError(name: "refused")) {
      _ = try await client.send(HTTPRequest(method: .delete, url: testURL()))
    }
    let entry = try #require(entries.value.first)
    #expect(entry.status == nil)
    #expect(entry.description.hasPrefix("DELETE https://api.example.com/items → failed after "))
    #expect(entry.description.contains("refused"))
  }

  @Test func credentialsAndNamedSecretsAreRedacted() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let stub = ScriptedClient { _, _ in
      reply(200, headers: [("Set-Cookie", "session=s3cr3t"), ("X-Trace", "t-1")], body: "{}")
    }
    let middleware = logging(
      into: entries,
      redaction: .standard.adding(headerNames: ["X-Shop-Key"], queryParameterNames: ["sig"]),
      includesHeaders: true
    )
    var request = HTTPRequest(
      method: .get,
      url: testURL("https://api.example.com/orders?page=2&sig=abc123&access_token=tok456")
    )
    try request.headerFields.append("Bearer tok789", for: "Authorization")
    try request.headerFields.append("id=cookie000", for: "Cookie")
    try request.headerFields.append("key-xyz", for: "x-shop-key")
    try request.headerFields.append("application/json", for: "Accept")
    _ = try await stub.with(middleware).send(request)
    let entry = try #require(entries.value.first)
    #expect(
      entry.url == "https://api.example.com/orders?page=2&sig=<redacted>&access_token=<redacted>")
    #expect(entry.requestHeaders?["Authorization"] == "<redacted>")
    #expect(entry.requestHeaders?["Cookie"] == "<redacted>")
    #expect(entry.requestHeaders?["X-Shop-Key"] == "<redacted>")
    #expect(entry.requestHeaders?["Accept"] == "application/json")
    #expect(entry.responseHeaders?["Set-Cookie"] == "<redacted>")
    #expect(entry.responseHeaders?["X-Trace"] == "t-1")
    for secret in ["abc123", "tok456", "tok789", "cookie000", "key-xyz", "s3cr3t"] {
      #expect(!entry.description.contains(secret))
    }
    #expect(entry.description.contains("  > Accept: application/json"))
    #expect(entry.description.contains("  < X-Trace: t-1"))
  }

  @Test func headersAndBodiesAreLeftOutByDefault() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let client = ScriptedClient(status: 200, body: "secret body").with(logging(into: entries))
    _ = try await client.send(HTTPRequest(method: .post, url: testURL(), body: HTTPBody("payload")))
    let entry = try #require(entries.value.first)
    #expect(entry.requestHeaders == nil)
    #expect(entry.responseHeaders == nil)
    #expect(entry.requestBodyPreview == nil)
    #expect(entry.responseBodyPreview == nil)
    #expect(!entry.description.contains("secret body"))
  }

  @Test func bodyPreviewIsBounded() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let middleware = logging(into: entries, bodyPreviewLimit: 4)
    _ = try await ScriptedClient(status: 200, body: "abcdefghij").with(middleware)
      .send(HTTPRequest(method: .put, url: testURL(), body: HTTPBody("0123456789")))
    #expect(entries.value.first?.requestBodyPreview == "0123… (6 more bytes)")
    #expect(entries.value.first?.responseBodyPreview == "abcd… (6 more bytes)")
  }

  @Test func streamedBodyPreviewCountsTheWholeBodyAndKeepsCharactersWhole() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    // "é" is two bytes; the limit falls in its middle.
    let chunks = RecordingChunks(["abé", "def", "ghij"])
    let client = ScriptedClient { _, _ in (HTTPResponse(status: 200), chunks.body) }
      .with(logging(into: entries, bodyPreviewLimit: 3))
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: testURL()))
    _ = try await body.collect(upTo: 100)
    #expect(entries.value.first?.responseBodyPreview == "ab… (9 more bytes)")
    #expect(entries.value.first?.bytes == 11)
  }

  @Test func formBodyPreviewHidesNamedFields() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    var request = HTTPRequest(
      method: .post,
      url: testURL(),
      body: HTTPBody("user=ann&password=hunter2&client_secret=xyz")
    )
    try request.headerFields.append("application/x-www-form-urlencoded", for: "Content-Type")
    _ = try await ScriptedClient(status: 204).with(logging(into: entries, bodyPreviewLimit: 100))
      .send(request)
    #expect(
      entries.value.first?.requestBodyPreview
        == "user=ann&password=<redacted>&client_secret=<redacted>")
  }

  @Test func durationIsFormattedInMillisecondsOrSeconds() {
    var entry = HTTPLogEntry(method: .get, url: "https://a.example", status: 204)
    entry.duration = .microseconds(12_345)
    #expect(entry.description == "GET https://a.example → 204 No Content, 0 bytes in 12.3 ms")
    entry.duration = .milliseconds(1_254)
    entry.bytes = 1
    #expect(entry.description == "GET https://a.example → 204 No Content, 1 byte in 1.25 s")
  }
}
