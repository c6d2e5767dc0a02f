import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `load(_:completion:)` over any client, with no network: the completion handler gets the
/// parsed resource, the parser's error or `CancellationError`, exactly once.
@Suite struct LoadTests {
  private let url = URL(string: "https://api.example.com/items")!

  @Test func completionReceivesTheParsedResource() async throws {
    let client = StubClient(body: HTTPBody(bytes("hello")))
    let endpoint = Endpoint(.get, url: url, parser: .string)
    let result = await withCheckedContinuation { continuation in
      client.load(endpoint) { continuation.resume(returning: $0) }
    }
    #expect(try result.get() == "hello")
  }

  @Test func completionReceivesTheStatusError() async throws {
    let client = StubClient(status: 404, body: HTTPBody(bytes("missing")))
    let endpoint = Endpoint(.get, url: url, parser: .data)
    let result = await withCheckedContinuation { continuation in
      client.load(endpoint) { continuation.resume(returning: $0) }
    }
    let error = try #require(throws: UnexpectedResponse.self) { try result.get() }
    #expect(error.status == 404)
  }

  @Test func cancellingTheHandleCompletesWithCancellationError() async throws {
    // The stub suspends until cancelled, as a silent server would.
    let client = StubClient { _ in
      try await Task.sleep(for: .seconds(600))
      throw TestFailure(message: "the request was not cancelled")
    }
    let endpoint = Endpoint(.get, url: url, parser: .data)
    let result = await withCheckedContinuation { continuation in
      let handle = client.load(endpoint) { continuation.resume(returning: $0) }
      handle.cancel()
      #expect(handle.isCancelled)
    }
    #expect(throws: CancellationError.self) { try result.get() }
  }
}
