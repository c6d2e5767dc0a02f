import EndpointCore
import Testing

/// A middleware that records when it sees the request and the response.
func tracing(_ name: String, into trace: Recorder<[String]>) -> ClosureMiddleware {
  ClosureMiddleware { request, next in
    trace.update { $0.append("\(name) →") }
    let result = try await next(request)
    trace.update { $0.append("\(name) ←") }
    return result
  }
}

@Suite struct CompositionTests {
  @Test func firstMiddlewareSeesTheRequestFirstAndTheResponseLast() async throws {
    let trace = Recorder<[String]>([])
    let stub = ScriptedClient { _, _ in
      trace.update { $0.append("client") }
      return reply(200)
    }
    let client = stub.with(
      tracing("a", into: trace), tracing("b", into: trace), tracing("c", into: trace))
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(trace.value == ["a →", "b →", "c →", "client", "c ←", "b ←", "a ←"])
  }

  @Test func middlewareCanAnswerWithoutCallingNext() async throws {
    let stub = ScriptedClient(status: 200)
    let cache = ClosureMiddleware { _, _ in reply(203, body: "cached") }
    let (response, _) = try await stub.with(cache).send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 203)
    #expect(stub.requests.isEmpty)
  }

  @Test func retryInsideLoggingLogsEveryAttemptWhenLoggingIsInnermost() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let stub = ScriptedClient { _, index in reply(index == 0 ? 503 : 200) }
    let client = stub.with(
      DefaultHeadersMiddleware(try HTTPFields([("User-Agent", "T/1")])),
      retry(sleeps: SleepRecorder()),
      AuthorizationMiddleware.bearer("tok"),
      logging(into: entries, includesHeaders: true)
    )
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(entries.value.map(\.status) == [503, 200])
    #expect(entries.value.allSatisfy { $0.requestHeaders?["User-Agent"] == "T/1" })
    #expect(entries.value.allSatisfy { $0.requestHeaders?["Authorization"] == "<redacted>" })
  }

  @Test func loggingOutermostLogsOneEntryPerCall() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let stub = ScriptedClient { _, index in reply(index == 0 ? 503 : 200) }
    let client = stub.with(logging(into: entries), retry(sleeps: SleepRecorder()))
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(entries.value.map(\.status) == [200])
    #expect(stub.requests.count == 2)
  }
}
