import EndpointKernel
import EndpointPrimitives
import Foundation
import Synchronization
import Testing

@testable import EndpointTesting

/// A transport double that behaves as `CurlHTTPClient` does with trailers: it reads the request
/// body, then asks for its trailer fields once, and answers with a streamed body whose trailer
/// fields are set when its last chunk has been read.
private final class TrailerTransport: HTTPClient {
  let responseTrailers: HTTPFields?
  let received = Mutex<(body: Data, trailers: HTTPFields?, calls: Int)>((Data(), nil, 0))

  init(responseTrailers: HTTPFields?) {
    self.responseTrailers = responseTrailers
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    if let body = request.body {
      var data = Data()
      for try await chunk in body { data.append(chunk) }
      let trailers = body.requestTrailers?()
      received.withVisibleLock { $0 = (data, trailers, $0.calls + 1) }
    }
    let box = TrailerBox()
    let trailers = responseTrailers
    let chunks = AsyncStream<Data> { continuation in
      continuation.yield(Data("hel".utf8))
      continuation.yield(Data("lo".utf8))
      continuation.finish()
    }
    let marked = chunks.map { $0 }
    var body = HTTPBody(EndMarker(base: marked) { box.set(trailers) }, length: nil)
    body.trailers = box.read
    return (HTTPResponse(status: 200, headerFields: ["Content-Type": "text/plain"]), body)
  }
}

/// Runs `atEnd` when `base` ends, before reporting the end.
private struct EndMarker<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == Data {
  typealias Element = Data
  let base: Base
  let atEnd: @Sendable () -> Void

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), atEnd: atEnd)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let atEnd: @Sendable () -> Void

    mutating func next() async throws -> Data? {
      guard let chunk = try await base.next() else {
        atEnd()
        return nil
      }
      return chunk
    }
  }
}

private func streamedBody(trailers: @escaping @Sendable () -> HTTPFields) -> HTTPBody {
  let chunks = AsyncStream<Data> { continuation in
    continuation.yield(Data("up".utf8))
    continuation.yield(Data("load".utf8))
    continuation.finish()
  }
  return HTTPBody(chunks, trailerFields: trailers)
}

@Suite struct TrailerRecordingTests {
  @Test func recordingClientPassesResponseTrailersToTheCallerAndRecordsThem() async throws {
    let recorder = RecordingClient(wrapping: TrailerTransport(responseTrailers: ["X-Sum": "ab"]))
    let (_, body) = try await recorder.send(try request(.get, "https://x.test/export"))
    #expect(body.trailerFields == nil, "not before the body has ended")
    #expect(try await text(body) == "hello")
    #expect(body.trailerFields?["X-Sum"] == "ab")
    let exchange = try #require(recorder.exchanges.first)
    #expect(exchange.isComplete)
    #expect(exchange.responseTrailerFields?["X-Sum"] == "ab")
    #expect(exchange.requestTrailerFields == nil)
  }

  @Test func recordingClientSendsRequestTrailersAndRecordsThemOnce() async throws {
    let transport = TrailerTransport(responseTrailers: nil)
    let recorder = RecordingClient(wrapping: transport)
    let asked = Mutex(0)
    let body = streamedBody {
      asked.withVisibleLock { $0 += 1 }
      return ["X-Upload-Sum": "9f"]
    }
    var put = try request(.put, "https://x.test/upload")
    put.body = body
    let (_, response) = try await recorder.send(put)
    _ = try await response.collect(upTo: 100)
    let received = transport.received.withVisibleLock { $0 }
    #expect(String(decoding: received.body, as: UTF8.self) == "upload")
    #expect(received.trailers?["X-Upload-Sum"] == "9f")
    #expect(asked.withVisibleLock { $0 } == 1)
    let exchange = try #require(recorder.exchanges.first)
    #expect(exchange.requestTrailerFields?["X-Upload-Sum"] == "9f")
    #expect(exchange.responseTrailerFields == nil)
  }

  @Test func replayClientRecordsTrailersRedactedAndReplaysThem() async throws {
    try await withTemporaryFixture { file in
      let transport = TrailerTransport(
        responseTrailers: ["X-Sum": "ab", "Authorization": "Bearer sk-trailer-secret-123"])
      let recorder = ReplayClient(fixture: file, recordingWith: transport, environment: [:])
      var put = try request(.put, "https://x.test/upload")
      put.body = streamedBody { ["X-Upload-Sum": "9f"] }
      let (_, recorded) = try await recorder.send(put)
      #expect(try await text(recorded) == "hello")
      // The caller sees what the server sent; the fixture holds it redacted.
      #expect(recorded.trailerFields?["Authorization"] == "Bearer sk-trailer-secret-123")
      // The request was sent chunked with its trailers.
      let received = transport.received.withVisibleLock { $0 }
      #expect(String(decoding: received.body, as: UTF8.self) == "upload")
      #expect(received.trailers?["X-Upload-Sum"] == "9f")

      let written = try String(contentsOf: file, encoding: .utf8)
      #expect(written.contains(#"["X-Sum", "ab"]"#))
      #expect(written.contains(#""trailers""#))
      #expect(!written.contains("sk-trailer-secret-123"))
      let exchanges = try ReplayClient.exchanges(inFixture: file)
      let trailers = try #require(exchanges.first?.responseTrailerFields)
      #expect(trailers["Authorization"] == HTTPFields.redactedValue)

      let replayer = ReplayClient(
        fixture: file, recordingWith: NoNetworkClient(), environment: ["CI": "true"])
      var again = try request(.put, "https://x.test/upload")
      again.body = HTTPBody("upload")
      let (_, replayed) = try await replayer.send(again)
      #expect(try await text(replayed) == "hello")
      #expect(replayed.trailerFields?["X-Sum"] == "ab")
    }
  }

  @Test func aFixtureWithoutTrailersReplaysNone() async throws {
    let fixture = Fixture(interactions: [
      Fixture.Interaction(
        request: Fixture.Request(method: .get, url: URL(string: "https://x.test/a")!),
        response: Fixture.Response(status: 200, body: Data("a".utf8))
      )
    ])
    try await withTemporaryFixture { file in
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try fixture.encoded().write(to: file)
      #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("trailers"))
      let replayer = ReplayClient(
        fixture: file, recordingWith: NoNetworkClient(), environment: ["CI": "true"])
      let (_, body) = try await replayer.send(try request(.get, "https://x.test/a"))
      #expect(try await text(body) == "a")
      #expect(body.trailerFields == nil)
    }
  }

  @Test func trailersThatAreNotPairsAreAClearFixtureError() throws {
    let text = """
      {"format": "endpoint-fixture", "version": 1, "interactions": [
        {"request": {"method": "GET", "url": "https://x.test/a"},
         "response": {"status": 200, "trailers": {"X-Sum": "ab"}}}
      ]}
      """
    let error = try #require(
      expectFailure(.invalidFixture) {
        _ = try Fixture(data: Data(text.utf8))
      })
    #expect(error.reason?.contains(#""trailers" must be an array of [name, value] pairs"#) == true)
  }

  @Test func stubResponsesCarryTrailers() async throws {
    let stub = StubClient()
    stub.on(.get, "/export").reply(.text("a,b").withTrailerFields(["X-Sum": "9f"]))
    let (_, body) = try await stub.send(try request(.get, "https://x.test/export"))
    #expect(try await text(body) == "a,b")
    #expect(body.trailerFields?["X-Sum"] == "9f")
    let invalid = StubClient()
    invalid.on(.get, "/bad").reply(.text("x").withTrailerFields(["Bad Name": "1"]))
    let error = await expectFailure(.invalidStub) {
      _ = try await invalid.send(try request(.get, "https://x.test/bad"))
    }
    #expect(error?.reason?.contains("trailer field") == true)
  }
}
