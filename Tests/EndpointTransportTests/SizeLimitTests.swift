import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct SizeLimitTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aDeclaredLengthPastTheLimitFailsBeforeTheBodyIsRead(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient(maximumResponseSize: 1_000_000)
    let url = try TestServers.fault.adding("/large")
    let received = Recorder<TransferMetrics>()
    let observed = try transport.makeClient(
      maximumResponseSize: 1_000_000,
      metricsObserver: { received.append($0) }
    )
    let error = try await #require(throws: TransportFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.kind == .responseTooLarge)
    #expect(error.limit == 1_000_000)
    #expect(error.byteCount == 52_428_800)
    let failure = await #expect(throws: TransportFailure.self) {
      try await observed.send(HTTPRequest(method: .get, url: url))
    }
    #expect(failure?.kind == .responseTooLarge)
    let metrics = try #require(received.values.first)
    #expect(metrics.bytesReceived < 52_428_800)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUndeclaredBodyIsCountedAndStoppedPastTheLimit(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(maximumResponseSize: 40)
    let url = try TestServers.fault.adding("/slow-body?chunks=20&interval_ms=5")
    let error = await #expect(throws: TransportFailure.self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 20)
    }
    #expect(error?.kind == .responseTooLarge)
    #expect(error?.limit == 40)
    #expect((error?.byteCount ?? 0) > 40)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func callBodyLimitRejectsADeclaredLengthAtOnce(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let endpoint = Endpoint(.get, url: try TestServers.fault.adding("/large"), parser: .data)
    let error = try await #require(throws: TransportFailure.self) {
      try await client.call(endpoint, bodyLimit: 1024)
    }
    #expect(error.kind == .responseTooLarge)
    #expect(error.byteCount == 52_428_800)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUnreadStreamFollowsEachClientsDocumentedBackpressure(transport: TransportUnderTest)
    async throws
  {
    switch transport {
    case .urlSession:
      // URLSession cannot pause a transfer: bytes nobody reads wait in memory up to a bound,
      // then the transfer stops.
      let client = URLSessionHTTPClient(configuration: .init(bodyBufferLimit: 256 * 1024))
      let url = try TestServers.fault.adding("/large?bytes=4000000")
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      try await Task.sleep(for: .milliseconds(500))
      let error = await #expect(throws: TransportFailure.self) {
        _ = try await body.collect(upTo: 1 << 23)
      }
      #expect(error?.kind == .bufferOverflow)
      #expect(error?.limit == 256 * 1024)
    case .curl:
      // Real backpressure: while nobody reads, the transfer pauses once 64 KiB wait unread,
      // and the pause (2.5 times the idle timeout) does not count as silence for it. The
      // timeout is a whole second so that a loaded machine's own pauses while the body is then
      // read do not reach it.
      let client = try CurlHTTPClient(
        configuration: .init(idleTimeout: .seconds(1), streamBufferSize: 64 * 1024)
      )
      let url = try TestServers.fault.adding("/large?bytes=8000000")
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      try await Task.sleep(for: .milliseconds(2500))
      let waiting = client.bytesWaitingForReaders
      #expect(waiting > 0)
      #expect(waiting < 64 * 1024 + 64 * 1024)
      #expect(try await body.collect(upTo: 1 << 24).count == 8_000_000)
      #expect(client.bytesWaitingForReaders == 0)
    }
  }

  @Test func aBodySmallerThanTheBufferBoundNeverOverflowsHoweverLateItIsRead() async throws {
    // URLSessionHTTPClient.Configuration.bodyBufferLimit: "a body smaller than the bound never
    // fails this way".
    let finished = Recorder<TransferMetrics>()
    let client = URLSessionHTTPClient(
      configuration: .init(
        bodyBufferLimit: 256 * 1024, metricsObserver: { finished.append($0) }))
    let url = try TestServers.fault.adding("/large?bytes=250000")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    // Nobody reads until the whole body has arrived and waits in memory.
    let start = ContinuousClock.now
    while finished.values.isEmpty, ContinuousClock.now - start < .seconds(10) {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(!finished.values.isEmpty, "the transfer ended while its body was unread")
    #expect(try await body.collect(upTo: 1 << 20).count == 250_000)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aLargeStreamedBodyArrivesWholeInChunks(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
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
