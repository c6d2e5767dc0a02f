import EndpointTransport
import Foundation
import Testing

/// `load(_:completion:)` (EndpointCore) over each real client, against real servers.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct LoadTests {
  @Test(arguments: TransportUnderTest.allCases)
  func completionReceivesTheParsedResource(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let endpoint = Endpoint(.get, url: try TestServers.httpbin.adding("/get"), parser: .string)
    let result = await withCheckedContinuation { continuation in
      client.load(endpoint) { continuation.resume(returning: $0) }
    }
    #expect(try result.get().contains("\"url\""))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func completionReceivesTheParserError(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let endpoint = Endpoint(.get, url: try TestServers.httpbin.adding("/status/404"), parser: .data)
    let result = await withCheckedContinuation { continuation in
      client.load(endpoint) { continuation.resume(returning: $0) }
    }
    #expect(throws: UnexpectedResponse.self) { try result.get() }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func cancellingTheHandleCompletesWithCancellationError(transport: TransportUnderTest) async throws
  {
    let client = try transport.makeClient()
    let endpoint = Endpoint(.get, url: try TestServers.fault.adding("/silent"), parser: .data)
    let result = await withCheckedContinuation { continuation in
      let handle = client.load(endpoint) { continuation.resume(returning: $0) }
      Task {
        try? await Task.sleep(for: .milliseconds(100))
        handle.cancel()
      }
    }
    #expect(throws: CancellationError.self) { try result.get() }
  }
}
