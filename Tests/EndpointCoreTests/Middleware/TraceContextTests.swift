import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct TraceContextTests {
  private let example = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

  // MARK: - Parsing

  @Test func aValidTraceparentIsRead() throws {
    let context = try #require(TraceContext(traceparent: example, tracestate: "congo=t61rcWkgMzE"))
    #expect(context.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
    #expect(context.spanID == "00f067aa0ba902b7")
    #expect(context.isSampled)
    #expect(context.traceState == "congo=t61rcWkgMzE")
    #expect(context.traceparent == example)
  }

  @Test(arguments: [
    "",
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",  // no flags
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // forbidden version
    "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // zero trace id
    "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // zero span id
    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",  // version 00 is exact
    "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
  ])
  func invalidTraceparentsAreRefused(_ text: String) {
    #expect(TraceContext(traceparent: text) == nil)
  }

  @Test func aLaterVersionIsReadByItsFirstParts() throws {
    let later = "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-what-the-future-holds"
    let context = try #require(TraceContext(traceparent: later))
    #expect(context.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
    #expect(!context.isSampled)
    #expect(context.traceparent.hasPrefix("00-"))
  }

  @Test func anOversizedTracestateIsDroppedButTheTraceKept() throws {
    let long = (0..<40).map { "k\($0)=v" }.joined(separator: ",")
    let context = try #require(TraceContext(traceparent: example, tracestate: long))
    #expect(context.traceState == nil)
  }

  // MARK: - The middleware

  @Test func aRequestWithoutContextStartsANewSampledTrace() async throws {
    let spans = Recorder<[SpanRecord]>([])
    let server = ScriptedClient(status: 200, body: "hello")
    let client = server.with(TraceContextMiddleware { span in spans.update { $0.append(span) } })
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: testURL()))
    _ = try await body.collect()
    #expect(response.status == 200)

    let sent = try #require(server.requests.first)
    let context = try #require(TraceContext(traceparent: sent.headerFields["traceparent"] ?? ""))
    #expect(context.isSampled)
    #expect(sent.headerFields["tracestate"] == nil)
    let span = try #require(spans.value.first)
    #expect(spans.value.count == 1)
    #expect(span.traceID == context.traceID)
    #expect(span.spanID == context.spanID)
    #expect(span.parentSpanID == nil)
    #expect(span.name == "GET")
    #expect(span.status == 200)
    #expect(span.failure == nil && !span.isAbandoned)
    #expect(span.bytesRead == 5)
    #expect(span.responseStart != nil)
    #expect(span.start <= span.end)
    #expect(!span.isError)
  }

  @Test func anIncomingContextIsContinuedWithANewSpan() async throws {
    let incoming = try #require(TraceContext(traceparent: example, tracestate: "congo=t61"))
    let spans = Recorder<[SpanRecord]>([])
    let server = ScriptedClient(status: 204)
    let client = server.with(
      TraceContextMiddleware(context: { incoming }) { span in spans.update { $0.append(span) } }
    )
    for _ in 0..<2 {
      let (_, body) = try await client.send(HTTPRequest(method: .post, url: testURL()))
      _ = try await body.collect()
    }
    let sent = server.requests.compactMap { $0.headerFields["traceparent"] }
    #expect(sent.count == 2)
    for text in sent {
      let context = try #require(TraceContext(traceparent: text))
      #expect(context.traceID == incoming.traceID)
      #expect(context.spanID != incoming.spanID)
    }
    // Each exchange is its own span.
    #expect(sent[0] != sent[1])
    #expect(server.requests.allSatisfy { $0.headerFields["tracestate"] == "congo=t61" })
    #expect(spans.value.map(\.parentSpanID) == [incoming.spanID, incoming.spanID])
    #expect(spans.value.allSatisfy { $0.traceID == incoming.traceID })
  }

  @Test func aTraceparentOnTheRequestIsItsParentAndIsReplaced() async throws {
    let spans = Recorder<[SpanRecord]>([])
    let server = ScriptedClient(status: 200)
    let client = server.with(TraceContextMiddleware { span in spans.update { $0.append(span) } })
    var request = HTTPRequest(method: .get, url: testURL())
    request.headerFields["traceparent"] = example
    let (_, body) = try await client.send(request)
    _ = try await body.collect()
    let sent = try #require(server.requests.first?.headerFields.values(for: "traceparent"))
    #expect(sent.count == 1)
    #expect(sent.first != example)
    #expect(spans.value.first?.parentSpanID == "00f067aa0ba902b7")
    #expect(spans.value.first?.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
  }

  @Test func aFailureIsRecordedOnceWithItsErrorAndARedactedURL() async throws {
    struct Refused: Error, CustomStringConvertible {
      var description: String { "connection refused" }
    }
    let spans = Recorder<[SpanRecord]>([])
    let server = ScriptedClient { _, _ in throw Refused() }
    let client = server.with(TraceContextMiddleware { span in spans.update { $0.append(span) } })
    let url = testURL("https://user:secret@api.example.com/items?access_token=abc123")
    await #expect(throws: Refused.self) {
      _ = try await client.send(HTTPRequest(method: .delete, url: url))
    }
    let span = try #require(spans.value.first)
    #expect(spans.value.count == 1)
    #expect(span.failure == "connection refused" && !span.isAbandoned)
    #expect(span.isError)
    #expect(span.status == nil)
    #expect(!span.url.contains("secret"))
    #expect(!span.url.contains("abc123"))
  }

  @Test func aBodyReleasedUnreadIsRecordedAsAbandoned() async throws {
    let spans = Recorder<[SpanRecord]>([])
    let server = ScriptedClient(status: 503, body: "busy")
    let client = server.with(TraceContextMiddleware { span in spans.update { $0.append(span) } })
    do {
      let (response, _) = try await client.send(HTTPRequest(method: .get, url: testURL()))
      #expect(response.status == 503)
    }
    let span = try #require(spans.value.first)
    #expect(span.isAbandoned && span.failure == nil)
    #expect(span.isError)
  }

  @Test func metricsForwardedFromTheClientJoinTheirSpan() async throws {
    let spans = Recorder<[SpanRecord]>([])
    let tracing = TraceContextMiddleware { span in spans.update { $0.append(span) } }
    let url = testURL()
    let server = ScriptedClient { request, _ in
      // What a transport's metrics observer reports as the transfer ends.
      let now = ContinuousClock.now
      tracing.observe(
        TransferMetrics(
          method: request.method, url: request.url, finalURL: request.url, status: 200,
          startDate: Date(), start: now, responseStart: now, firstBodyByte: now, end: now,
          connect: .milliseconds(3), bytesSent: 0, bytesReceived: 2, redirectCount: 0,
          error: nil
        )
      )
      return reply(200, body: "ok")
    }
    let client = server.with(tracing)
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    _ = try await body.collect()
    #expect(spans.value.first?.metrics?.connect == .milliseconds(3))
    // Metrics of another request do not join.
    tracing.observe(
      TransferMetrics(
        method: .get, url: testURL("https://other.example.com/"), finalURL: nil, status: nil,
        startDate: Date(), start: .now, responseStart: nil, firstBodyByte: nil, end: .now,
        bytesSent: 0, bytesReceived: 0, redirectCount: 0, error: nil
      )
    )
    #expect(spans.value.count == 1)
  }
}
