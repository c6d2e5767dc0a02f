import Foundation
import Testing

@testable import EndpointCurl

/// Loading libcurl, and shutting a client down.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct LifecycleTests {
  @Test func aMissingLibraryIsNamedInTheError() throws {
    let error = try #require(CurlLibrary.load("libcurl-endpoint-missing.so.9", install: false))
    #expect(error.description.contains("libcurl-endpoint-missing.so.9"))
    #expect(error.description.contains("cannot load libcurl-endpoint-missing.so.9"))
    #expect(error.description.contains("7.68.0 or newer"))
  }

  @Test func aLibraryOlderThanTheMinimumIsRefusedWithItsVersion() throws {
    let error = try #require(
      CurlLibrary.load(CurlLibrary.defaultName, minimumVersion: 0x7F_0000, install: false)
    )
    #expect(error.description.contains("libcurl.so.4 is libcurl \(CurlLibrary.version)"))
    #expect(error.description.contains("127.0.0 or newer"))
  }

  @Test func theSystemLibraryLoads() throws {
    _ = try CurlHTTPClient()
    #expect(CurlLibrary.load(CurlLibrary.defaultName, install: false) == nil)
    #expect(CurlLibrary.unavailable == nil)
  }

  @Test func shuttingDownFailsRequestsInFlightAndLaterOnes() async throws {
    let client = try CurlHTTPClient()
    let silent = try TestServers.fault.adding("/silent")
    let stalled = try TestServers.fault.adding("/stall?after=100000")
    let waiting = Task { try await client.send(HTTPRequest(method: .get, url: silent)) }
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: stalled))
    let reading = Task { try await body.collect(upTo: 1 << 20) }
    try await Task.sleep(for: .milliseconds(200))
    await client.shutdown()

    let first = await #expect(throws: TransportFailure.self) { try await waiting.value }
    #expect(first?.kind == .shutDown)
    #expect(first?.url == silent)
    let failure = await #expect(throws: TransportFailure.self) { try await reading.value }
    #expect(failure?.kind == .shutDown)
    let later = try await #require(throws: TransportFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: silent))
    }
    #expect(later.kind == .shutDown)
    #expect(later.description.contains("shut down"))
    #expect(client.liveEasyHandles == 0)
    await client.shutdown()  // a second call returns at once
  }

  @Test func aReleasedClientLetsItsLastBodyFinish() async throws {
    let url = try TestServers.fault.adding("/slow-body?chunks=5&interval_ms=20")
    var client: CurlHTTPClient? = try CurlHTTPClient()
    let (_, body) = try await client!.send(HTTPRequest(method: .get, url: url))
    client = nil
    var lines: [String] = []
    for try await line in body.lines { lines.append(line) }
    #expect(lines == (0..<5).map { "chunk-\($0)" })
  }
}
