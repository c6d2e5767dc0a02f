import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// The connect timeout on both clients, and public-key pinning where URLSession cannot do it.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ServerOptionsTests {
  private func client(
    _ transport: TransportUnderTest,
    connectTimeout: Duration,
    idleTimeout: Duration? = .seconds(60)
  ) throws -> any HTTPClient {
    switch transport {
    case .urlSession:
      var configuration = URLSessionHTTPClient.Configuration(idleTimeout: idleTimeout)
      configuration.connectTimeout = connectTimeout
      return URLSessionHTTPClient(configuration: configuration)
    case .curl:
      var configuration = CurlHTTPClient.Configuration(idleTimeout: idleTimeout)
      configuration.connectTimeout = connectTimeout
      return try CurlHTTPClient(configuration: configuration)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aConnectionThatIsNeverMadeFailsWithConnectTimeout(_ transport: TransportUnderTest)
    async throws
  {
    let listener = try StalledListener()
    defer { listener.close() }
    let client = try client(transport, connectTimeout: .milliseconds(400))
    let start = ContinuousClock.now
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: listener.url("/never")))
    }
    #expect(error.kind == .connectTimeout)
    let elapsed = ContinuousClock.now - start
    #expect(error.timeout == .milliseconds(400))
    #expect(error.url == listener.url("/never"))
    // Long before the idle timeout of 60 s, with room for a loaded machine.
    #expect(elapsed >= .milliseconds(350))
    #expect(elapsed < .seconds(20))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aSlowAnswerToAnUploadOutlastsTheConnectTimeout(_ transport: TransportUnderTest)
    async throws
  {
    let client = try client(transport, connectTimeout: .milliseconds(500))
    // The body is sent at once (the connection is made), the answer comes 1.5 s later.
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.httpbin.adding("/delay/1.5"),
      body: HTTPBody(Data("payload".utf8))
    )
    let (response, _) = try await client.send(request)
    #expect(response.status == 200)
  }

  /// URLSession reports nothing of the connection phase: for a request without a body the
  /// first sign of a connection is the response head, so its connect timeout also bounds the
  /// wait for the answer (documented on `URLSessionHTTPClient.Configuration.connectTimeout`).
  /// curl's covers the TCP connection and the TLS handshake only.
  @Test(arguments: TransportUnderTest.allCases)
  func aSlowAnswerToAGetIsLimitedOnlyWhereTheConnectionIsNotVisible(
    _ transport: TransportUnderTest
  ) async throws {
    let client = try client(transport, connectTimeout: .milliseconds(500))
    let request = HTTPRequest(method: .get, url: try TestServers.httpbin.adding("/delay/1.5"))
    switch transport {
    case .urlSession:
      let failure = await #expect(throws: TransportFailure.self) {
        _ = try await client.send(request)
      }
      #expect(failure?.kind == .connectTimeout)
    case .curl:
      let (response, _) = try await client.send(request)
      #expect(response.status == 200)
    }
  }

  private func traced(_ client: some HTTPClient, _ tracing: TraceContextMiddleware)
    -> any HTTPClient
  {
    client.with(tracing)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func traceContextReachesTheServerAndTheSpanCarriesTheTransportsMetrics(
    _ transport: TransportUnderTest
  ) async throws {
    let spans = Recorder<SpanRecord>()
    let tracing = TraceContextMiddleware { spans.append($0) }
    let client = traced(try transport.makeClient(metricsObserver: { tracing.observe($0) }), tracing)
    let url = try TestServers.httpbin.adding("/headers")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    let headers = try #require(json["headers"] as? [String: String])
    let sent = try #require(TraceContext(traceparent: headers["Traceparent"] ?? ""))
    let span = try #require(spans.values.first)
    #expect(spans.values.count == 1)
    #expect(span.traceID == sent.traceID)
    #expect(span.spanID == sent.spanID)
    #expect(span.status == 200)
    #expect(span.failure == nil && !span.isAbandoned)
    let metrics = try #require(span.metrics)
    #expect(metrics.status == 200)
    #expect(metrics.url == url)
  }

  #if canImport(FoundationNetworking)
    @Test func urlSessionOnLinuxRefusesToSendWhenPinningIsConfigured() async throws {
      let server = try CaptureServer()
      defer { server.stop() }
      var configuration = URLSessionHTTPClient.Configuration()
      configuration.pinnedPublicKeys = [try PublicKeyPin(sha256: Array(repeating: 1, count: 32))]
      let client = URLSessionHTTPClient(configuration: configuration)
      let error = try await #require(throws: InvalidRequest.self) {
        _ = try await client.send(HTTPRequest(method: .get, url: server.url.adding("/pinned")))
      }
      #expect(error.kind == .unsupported)
      #expect(error.reason.contains("pinning"))
      #expect(error.reason.contains("CurlHTTPClient"))
      // Nothing was sent unpinned.
      #expect(server.bytesByConnection.isEmpty)
      // Without pins the same client configuration sends.
      let plain = URLSessionHTTPClient()
      let (response, _) = try await plain.send(
        HTTPRequest(method: .get, url: server.url.adding("/plain"))
      )
      #expect(response.status == 200)
      #expect(server.requests.count == 1)
    }
  #endif
}
