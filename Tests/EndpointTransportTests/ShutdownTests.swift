import Foundation
import Testing

@testable import EndpointTransport

/// Shutting a URLSession client down, as the curl client's `shutdown()` does.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct URLSessionShutdownTests {
  @Test func shuttingDownFailsRequestsInFlightAndLaterOnes() async throws {
    let client = URLSessionHTTPClient()
    let silent = try TestServers.fault.adding("/silent")
    let stalled = try TestServers.fault.adding("/stall?after=100000")
    let waiting = Task { try await client.send(HTTPRequest(method: .get, url: silent)) }
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: stalled))
    let reading = Task { try await body.collect(upTo: 1 << 20) }
    try await Task.sleep(for: .milliseconds(200))
    await client.shutdown()

    let first = await #expect(throws: TransportFailure.self) {
      try await waiting.value
    }
    #expect(first?.kind == .shutDown)
    #expect(first?.url == silent)
    let failure = await #expect(throws: TransportFailure.self) { try await reading.value }
    #expect(failure?.kind == .shutDown)
    let later = try await #require(throws: TransportFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: silent))
    }
    #expect(later.kind == .shutDown)
    #expect(later.description.contains("shut down"))
    // The cancelled tasks complete on the session's queue soon after: nothing stays tracked.
    let start = ContinuousClock.now
    while client.transfersInFlight > 0, ContinuousClock.now - start < .seconds(10) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(client.transfersInFlight == 0)
    await client.shutdown()  // a second call returns at once
  }

  @Test func aRequestWaitingToStartFailsWithShutDownNotACrash() async throws {
    let client = URLSessionHTTPClient()
    let url = try TestServers.fault.adding("/silent")
    let tasks = (0..<20).map { _ in
      Task { try await client.send(HTTPRequest(method: .get, url: url)) }
    }
    await client.shutdown()
    for task in tasks {
      let failure = await #expect(throws: TransportFailure.self) { try await task.value }
      #expect(failure?.kind == .shutDown)
    }
  }

  @Test func theErrorRedactsTheURL() throws {
    let url = try #require(URL(string: "https://user:secret@example.com/x?token=abc"))
    let error = "\(URLSessionHTTPClient.shutDownFailure(method: .get, url: url))"
    #expect(!error.contains("secret"))
    #expect(!error.contains("abc"))
  }
}
