import EndpointTransport
import Foundation
import Testing

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CancellationTests {
  @Test(arguments: TransportUnderTest.allCases)
  func cancellingTheTaskStopsAWaitingRequestWithCancellationError(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/silent")
    let task = Task { try await client.send(HTTPRequest(method: .get, url: url)) }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    let (result, duration) = await elapsed { try await task.value }
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(duration < .seconds(10))  // the silent server would hold it for 120 s
  }

  @Test(arguments: TransportUnderTest.allCases)
  func cancellingWhileReadingTheBodyThrowsCancellationError(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/slow-body?chunks=50&interval_ms=50")
    let firstLine = Recorder<String>()
    let task = Task {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      for try await line in body.lines { firstLine.append(line) }
    }
    while firstLine.values.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(firstLine.values.first == "chunk-0")
    #expect(firstLine.values.count < 50)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anAlreadyCancelledTaskDoesNotSend(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.send(HTTPRequest(method: .get, url: url))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func droppingAnUnreadBodyStopsTheTransfer(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(idleTimeout: .seconds(5))
    let url = try TestServers.fault.adding("/stall?after=100000")
    do {
      let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
      #expect(response.status == 200)
    }
    // The body was dropped: the transfer is cancelled instead of waiting for the stalled server
    // (and curl's easy handle goes back to the pool).
    #expect(try await transport.waitUntilIdle(client))
  }

  // One heavy race per client: curl's, with 10,000 cancellations and its easy-handle
  // accounting, is in EndpointCurlTests.
  @Test(.timeLimit(.minutes(1)), arguments: [TransportUnderTest.urlSession])
  func thousandsOfCancellationsRacingCompletionsNeverHangOrCrash(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient(maximumConnectionsPerHost: 16)
    let fault = try TestServers.fault
    let urls = [
      fault.adding("/echo"),
      fault.adding("/slow-body?chunks=3&interval_ms=2"),
      fault.adding("/large?bytes=200000"),
    ]
    // Up to 100 ms: at 64 in flight a request through URLSession takes tens of milliseconds
    // (about 2,400 requests a second on two cores), and cancellations must race completions.
    // (Cancellations once landed late because the client's URLSession calls held the pool's
    // threads, which the timers of the cancelling tasks needed.) One request in 16 waits a
    // second, so that some complete even on a busy machine.
    let all = await outcomesOfCancelling(2000, atMost: 64) { index in
      index % 16 == 0 ? .seconds(1) : .microseconds(Int.random(in: 0...100_000))
    } _: { index in
      let url = urls[index % urls.count]
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 20)
      return response.status
    }
    let results = all.filter { $0 == "result" }.count
    let cancellations = all.filter { $0 == "cancelled" }.count
    let others = all.filter { $0 != "result" && $0 != "cancelled" }
    #expect(others.isEmpty, "unexpected errors: \(others.prefix(5))")
    #expect(results + cancellations == 2000)
    #expect(cancellations > 0)
    #expect(results > 0)
    #expect(try await transport.waitUntilIdle(client))
  }
}
