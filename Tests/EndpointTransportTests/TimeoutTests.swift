import EndpointTransport
import Foundation
import Testing

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TimeoutTests {
  @Test(arguments: TransportUnderTest.allCases)
  func idleTimeoutFiresWithSubSecondPrecisionOnASilentServer(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient(idleTimeout: .milliseconds(300))
    let url = try TestServers.fault.adding("/silent")
    let (result, duration) = await elapsed {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    let error = try #require(throws: TransportFailure.self) { try result.get() }
    #expect(error.kind == .idleTimeout)
    #expect(error.timeout == .milliseconds(300))
    #expect(error.elapsed ?? .zero >= .milliseconds(300))
    #expect(error.url == url)
    #expect(error.description.contains("0.3 s"))
    // Foundation on Linux would round 0.3 s down to 0 and fail at once, or wait a whole second.
    #expect(duration >= .milliseconds(300))
    #expect(duration < .seconds(10))  // the silent server would hold it for 120 s
  }

  @Test(arguments: TransportUnderTest.allCases)
  func idleTimeoutFiresWhenTheBodyStallsAfterTheHead(transport: TransportUnderTest) async throws {
    // Three seconds, so that a loaded machine still gets the head in time; the stall lasts
    // 120 s.
    let client = try transport.makeClient(idleTimeout: .seconds(3), inlineBodyLimit: 0)
    let url = try TestServers.fault.adding("/stall?after=100")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await body.collect(upTo: 1 << 20)
    }
    #expect(error?.kind == .idleTimeout)
    #expect(error?.timeout == .seconds(3))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func requestTimeoutIsTheTotalDeadline(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/delay/3")
    let request = HTTPRequest(method: .get, url: url, timeout: .milliseconds(500))
    let (result, duration) = await elapsed { try await client.send(request) }
    let error = try #require(throws: TransportFailure.self) { try result.get() }
    #expect(error.kind == .deadlineExceeded)
    #expect(error.timeout == .milliseconds(500))
    #expect(error.elapsed ?? .zero >= .milliseconds(500))
    #expect(error.description.contains("deadline 0.5 s"))
    // The server answers after 3 s: the deadline fired before (measured by the transport
    // when it fired), and the caller was not held until the answer came.
    #expect(error.elapsed ?? .zero < .milliseconds(2900))
    #expect(duration < .seconds(10))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func endpointTimeoutBecomesTheDeadline(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let endpoint = Endpoint(
      .get,
      url: try TestServers.httpbin.adding("/delay/3"),
      timeout: .milliseconds(400),
      parser: .data
    )
    let error = try await #require(throws: TransportFailure.self) {
      try await client.call(endpoint)
    }
    #expect(error.kind == .deadlineExceeded)
    #expect(error.timeout == .milliseconds(400))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDripFeedPassesTheIdleTimeoutButNotTheDeadline(transport: TransportUnderTest) async throws {
    // 10 bytes over 3 s: a byte every 0.3 s keeps an idle timeout of 2 s from firing (a
    // loaded machine would have to stall for 1.7 s), while a deadline of 1.5 s stops the
    // transfer even though bytes keep coming. The idle timeout is longer than the deadline,
    // so a stall cannot fire it first.
    let url = try TestServers.httpbin.adding("/drip?duration=3&numbytes=10&delay=0")
    let idleOnly = try transport.makeClient(idleTimeout: .seconds(2), inlineBodyLimit: 0)
    let (_, body) = try await idleOnly.send(HTTPRequest(method: .get, url: url))
    #expect(try await body.collect(upTo: 1024).count == 10)

    let withDeadline = try transport.makeClient(
      idleTimeout: .seconds(2), deadline: .milliseconds(1500), inlineBodyLimit: 0)
    let failure = await #expect(throws: TransportFailure.self) {
      let (_, body) = try await withDeadline.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1024)
    }
    #expect(failure?.kind == .deadlineExceeded)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aSlowDripTripsTheIdleTimeout(transport: TransportUnderTest) async throws {
    // 3 bytes over 1.5 s: 0.5 s between bytes is longer than the idle timeout of 0.25 s.
    let url = try TestServers.httpbin.adding("/drip?duration=1.5&numbytes=3&delay=0")
    let client = try transport.makeClient(idleTimeout: .milliseconds(250), inlineBodyLimit: 0)
    let failure = await #expect(throws: TransportFailure.self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1024)
    }
    #expect(failure?.kind == .idleTimeout)
  }
}
