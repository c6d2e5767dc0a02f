import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// Coalescing on the wire: the server sees one request however many identical calls overlap.
@Suite struct CoalescingWireTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aThousandIdenticalCallsCauseOneRequestAtTheServer(transport: TransportUnderTest)
    async throws
  {
    let gate = DispatchSemaphore(value: 0)
    let server = try CaptureServer { _ in
      gate.wait()
      return CaptureServer.Answer(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n"
          + "{\"items\":[1]}"
      )
    }
    defer {
      gate.signal()
      server.stop()
    }
    let coalescing = CoalescingMiddleware()
    let client = AnyClient(try transport.makeClient()).with(coalescing)
    let endpoint = Endpoint(.get, url: server.url.appending(path: "catalog"), parser: .data)
    let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
      for _ in 0..<1_000 {
        group.addTask { try await client.call(endpoint) }
      }
      let start = ContinuousClock.now
      while coalescing.callersWaiting < 1_000, ContinuousClock.now - start < .seconds(60) {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(coalescing.callersWaiting == 1_000)
      try await server.waitForRequests(1)
      gate.signal()
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(bodies.count == 1_000)
    #expect(Set(bodies) == [Data("{\"items\":[1]}".utf8)])
    #expect(server.requests.count == 1)
    #expect(server.requests.first?.requestLine == "GET /catalog HTTP/1.1")
  }
}
