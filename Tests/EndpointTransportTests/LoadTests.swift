import EndpointTransport
import Foundation
import Testing

@Suite struct LoadTests {
  let client = URLSessionHTTPClient()

  @Test func completionReceivesTheParsedResource() async throws {
    let endpoint = Endpoint(.get, url: try TestServers.httpbin.adding("/get"), parser: .string)
    let result = await withCheckedContinuation { continuation in
      client.load(endpoint) { continuation.resume(returning: $0) }
    }
    #expect(try result.get().contains("\"url\""))
  }

  @Test func completionReceivesTheParserError() async throws {
    let endpoint = Endpoint(.get, url: try TestServers.httpbin.adding("/status/404"), parser: .data)
    let result = await withCheckedContinuation { continuation in
      client.load(endpoint) { continuation.resume(returning: $0) }
    }
    #expect(throws: UnexpectedResponse.self) { try result.get() }
  }

  @Test func cancellingTheHandleCompletesWithCancellationError() async throws {
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
