import EndpointTesting
import Foundation
import Testing

@Suite struct RecordingClientTests {
  @Test func recordsRequestResponseBodyAndDuration() async throws {
    let stub = StubClient()
    stub.on(.post, "/todos").reply(status: 201, json: #"{"id": 1}"#)
    let recorder = RecordingClient(wrapping: stub)
    let (response, body) = try await recorder.send(
      request(.post, "https://x.test/todos", headers: ["X-A": "1"], body: "Milk")
    )
    #expect(response.status == 201)
    #expect(try await text(body) == #"{"id": 1}"#)
    let exchange = try #require(recorder.exchanges.first)
    #expect(exchange.request.headerFields["x-a"] == "1")
    #expect(exchange.requestBody == Data("Milk".utf8))
    #expect(exchange.response?.status == 201)
    #expect(exchange.responseBody == Data(#"{"id": 1}"#.utf8))
    #expect(exchange.isComplete)
    #expect(exchange.error == nil)
    #expect(exchange.duration >= .zero)
  }

  @Test func recordsTheErrorAClientThrows() async throws {
    let stub = StubClient()
    stub.on(.get, "/down").fail(with: Timeout())
    let recorder = RecordingClient(wrapping: stub)
    await #expect(throws: Timeout.self) {
      try await recorder.send(request(.get, "https://x.test/down"))
    }
    let exchange = try #require(recorder.exchanges.first)
    #expect(exchange.response == nil)
    #expect(exchange.error is Timeout)
    #expect(exchange.description == "GET https://x.test/down → error: Timeout()")
  }

  @Test func streamedResponseIsTeedNotConsumed() async throws {
    let recorder = RecordingClient(wrapping: StreamingClient(chunks: ["a", "bb", "ccc"]))
    let (_, body) = try await recorder.send(request(.get, "https://x.test/stream"))
    #expect(recorder.exchanges[0].isComplete == false)
    var received: [String] = []
    for try await chunk in body {
      received.append(String(decoding: chunk, as: UTF8.self))
    }
    #expect(received == ["a", "bb", "ccc"])
    let exchange = recorder.exchanges[0]
    #expect(exchange.responseBody == Data("abbccc".utf8))
    #expect(exchange.isComplete)
    #expect(exchange.totalDuration != nil)
  }

  @Test func streamedRequestBodyReachesTheClientAndTheRecord() async throws {
    let stub = StubClient()
    stub.on(.post, "/upload").body(text: "part1part2").reply(status: 200)
    let recorder = RecordingClient(wrapping: stub)
    var upload = try request(.post, "https://x.test/upload")
    upload.body = HTTPBody(
      AsyncStream { continuation in
        continuation.yield(Data("part1".utf8))
        continuation.yield(Data("part2".utf8))
        continuation.finish()
      }
    )
    #expect(try await recorder.send(upload).0.status == 200)
    #expect(recorder.exchanges[0].requestBody == Data("part1part2".utf8))
    #expect(recorder.exchanges[0].request.body?.data == Data("part1part2".utf8))
  }

  @Test func callThroughRecorderStillRunsTheParser() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/users/{id}").reply(json: User(id: 7, name: "Grace"))
    let recorder = RecordingClient(wrapping: stub)
    #expect(try await recorder.call(userEndpoint(id: 7)) == User(id: 7, name: "Grace"))
    #expect(recorder.exchanges.map(\.request.url.path) == ["/v1/users/7"])
    recorder.removeAll()
    #expect(recorder.exchanges.isEmpty)
  }
}

/// A client whose response body is a single-use stream of chunks.
struct StreamingClient: HTTPClient {
  let chunks: [String]

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    let chunks = chunks
    let stream = AsyncStream<Data> { continuation in
      for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
      continuation.finish()
    }
    return (HTTPResponse(status: 200, url: request.url), HTTPBody(stream))
  }
}
