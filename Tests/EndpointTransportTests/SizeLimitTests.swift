import EndpointTransport
import Foundation
import Testing

@Suite struct SizeLimitTests {
  @Test func aDeclaredLengthPastTheLimitFailsBeforeTheBodyIsRead() async throws {
    let client = URLSessionHTTPClient(configuration: .init(maximumResponseSize: 1_000_000))
    let url = try TestServers.fault.adding("/large")
    let received = Recorder<TransferMetrics>()
    let observed = URLSessionHTTPClient(
      configuration: .init(
        maximumResponseSize: 1_000_000,
        metricsObserver: { received.append($0) }
      )
    )
    let error = try await #require(throws: ResponseTooLarge.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.limit == 1_000_000)
    #expect(error.received == 52_428_800)
    await #expect(throws: ResponseTooLarge.self) {
      try await observed.send(HTTPRequest(method: .get, url: url))
    }
    let metrics = try #require(received.values.first)
    #expect(metrics.bytesReceived < 52_428_800)
  }

  @Test func anUndeclaredBodyIsCountedAndStoppedPastTheLimit() async throws {
    let client = URLSessionHTTPClient(configuration: .init(maximumResponseSize: 40))
    let url = try TestServers.fault.adding("/slow-body?chunks=20&interval_ms=5")
    let error = await #expect(throws: ResponseTooLarge.self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 20)
    }
    #expect(error?.limit == 40)
    #expect((error?.received ?? 0) > 40)
  }

  @Test func callBodyLimitRejectsADeclaredLengthAtOnce() async throws {
    let client = URLSessionHTTPClient()
    let endpoint = Endpoint(.get, url: try TestServers.fault.adding("/large"), parser: .data)
    let error = try await #require(throws: ResponseTooLarge.self) {
      try await client.call(endpoint, bodyLimit: 1024)
    }
    #expect(error.received == 52_428_800)
  }

  @Test func anUnreadStreamPastTheBufferLimitFailsWithBufferOverflow() async throws {
    let client = URLSessionHTTPClient(configuration: .init(bodyBufferLimit: 256 * 1024))
    let url = try TestServers.fault.adding("/large?bytes=4000000")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    // Not reading while 4 MB arrive: the buffer passes its bound and the transfer stops.
    try await Task.sleep(for: .milliseconds(500))
    let error = await #expect(throws: ResponseBufferOverflow.self) {
      _ = try await body.collect(upTo: 1 << 23)
    }
    #expect(error?.limit == 256 * 1024)
  }

  @Test func aLargeStreamedBodyArrivesWholeInChunks() async throws {
    let client = URLSessionHTTPClient()
    let url = try TestServers.fault.adding("/large?bytes=20000000")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    var total = 0
    var chunks = 0
    for try await chunk in body {
      total += chunk.count
      chunks += 1
    }
    #expect(total == 20_000_000)
    #expect(chunks > 1)
  }
}
