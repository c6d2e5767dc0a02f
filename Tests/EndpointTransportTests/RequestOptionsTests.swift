import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Redirect policy, idle timeout and response size limit set per request, over the client's
/// configuration, on both transports.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct RequestOptionsTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aRequestLiftsTheClientsSizeLimit(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(maximumResponseSize: 40)
    let url = try TestServers.fault.adding("/slow-body?chunks=20&interval_ms=1")
    // The client's limit alone stops this body...
    let failure = await #expect(throws: TransportFailure.self) {
      _ = try await client.call(Endpoint(.get, url: url, parser: .data))
    }
    #expect(failure?.kind == .responseTooLarge)
    // ...and the endpoint's option lifts it for this request only.
    let whole = try await client.call(
      Endpoint(.get, url: url, parser: .data).maximumResponseSize(.unlimited)
    )
    #expect(String(decoding: whole, as: UTF8.self).hasSuffix("chunk-19\n"))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRequestSetsASizeLimitTheClientDoesNotHave(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(maximumResponseSize: nil)
    var request = HTTPRequest(method: .get, url: try TestServers.fault.adding("/large"))
    request.options.maximumResponseSize = .limited(1_000)
    let error = try await #require(throws: TransportFailure.self) {
      let (_, body) = try await client.send(request)
      _ = try await body.collect(upTo: 1 << 30)
    }
    #expect(error.kind == .responseTooLarge)
    #expect(error.limit == 1_000)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRequestDoesNotFollowRedirectsTheClientFollows(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient(redirects: .followDefault)
    let url = try TestServers.fault.adding("/redirect-chain?hops=2")
    let followed = try await client.call(Endpoint(.get, url: url, parser: .data))
    #expect(String(decoding: followed, as: UTF8.self).contains("\"hops\": 0"))

    let request = HTTPRequest(method: .get, url: url, options: .init(redirectPolicy: .doNotFollow))
    let (response, body) = try await client.send(request)
    _ = try await body.collect(upTo: 1 << 16)
    #expect(response.status == 302)
    #expect(response.headerFields["Location"] == "/redirect-chain?hops=1")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRequestFollowsRedirectsTheClientDoesNot(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(redirects: .doNotFollow)
    let url = try TestServers.fault.adding("/redirect-chain?hops=3")
    let (first, firstBody) = try await client.send(HTTPRequest(method: .get, url: url))
    _ = try await firstBody.collect(upTo: 1 << 16)
    #expect(first.status == 302)

    let tooFew = Endpoint(.get, url: url, parser: .data).following(.follow(upTo: 2))
    let error = try await #require(throws: TransportFailure.self) {
      try await client.call(tooFew)
    }
    #expect(error.kind == .tooManyRedirects)
    #expect(error.limit == 2)
    let enough = try await client.call(
      Endpoint(.get, url: url, parser: .data).following(.follow(upTo: 3))
    )
    #expect(String(decoding: enough, as: UTF8.self).contains("\"hops\": 0"))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRequestShortensTheClientsIdleTimeout(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(idleTimeout: .seconds(60))
    let url = try TestServers.fault.adding("/silent")
    let endpoint = Endpoint(.get, url: url, parser: .data)
      .idleTimeout(.limited(.milliseconds(300)))
    let started = ContinuousClock.now
    let error = try await #require(throws: TransportFailure.self) {
      try await client.call(endpoint)
    }
    #expect(error.kind == .idleTimeout)
    #expect(ContinuousClock.now - started < .seconds(30))
    #expect(error.timeout == .milliseconds(300))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRequestLiftsTheClientsIdleTimeout(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(idleTimeout: .milliseconds(300))
    let url = try TestServers.fault.adding("/slow-body?chunks=2&interval_ms=1500")
    let failure = await #expect(throws: TransportFailure.self) {
      _ = try await client.call(Endpoint(.get, url: url, parser: .data))
    }
    #expect(failure?.kind == .idleTimeout)
    let whole = try await client.call(
      Endpoint(.get, url: url, parser: .data).idleTimeout(.unlimited)
    )
    #expect(String(decoding: whole, as: UTF8.self) == "chunk-0\nchunk-1\n")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUnusableOptionIsRefusedBeforeAnyByteIsSent(transport: TransportUnderTest)
    async throws
  {
    let server = try CaptureServer()
    defer { server.stop() }
    let client = try transport.makeClient()
    var request = HTTPRequest(method: .get, url: server.url)
    request.options.idleTimeout = .limited(.zero)
    let idle = try await #require(throws: InvalidRequest.self) {
      try await client.send(request)
    }
    #expect(idle.kind == .option)
    #expect(idle.setting == "idleTimeout")
    request.options = RequestOptions(maximumResponseSize: .limited(-1))
    let size = try await #require(throws: InvalidRequest.self) {
      try await client.send(request)
    }
    #expect(size.kind == .option)
    #expect(size.description.contains("maximumResponseSize = -1"))
    #expect(server.totalBytes == 0)
  }

  @Test func urlSessionUsedDirectlyRefusesOptionsItCannotApply() async throws {
    let url = try TestServers.fault.adding("/redirect-chain?hops=1")
    let request = HTTPRequest(method: .get, url: url, options: .init(redirectPolicy: .doNotFollow))
    let error = try await #require(throws: InvalidRequest.self) {
      try await URLSession.shared.send(request)
    }
    #expect(error.kind == .unsupported)
    #expect(error.reason.contains("a redirect policy"))
    // A lifted size limit is what a plain session does anyway: sent.
    let lifted = HTTPRequest(
      method: .get, url: url, options: .init(maximumResponseSize: .unlimited))
    let (response, _) = try await URLSession.shared.send(lifted)
    #expect(response.status == 200)
  }
}
