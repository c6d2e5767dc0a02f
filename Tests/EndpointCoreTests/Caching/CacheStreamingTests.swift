import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Streamed bodies are stored as the caller reads them, and only when read to the end.
@Suite struct CacheStreamingTests {
  private func streaming(
    failure: TestFailure? = nil,
    length: Int64? = nil,
    maximumBodySize: Int = 1024
  ) -> CacheHarness {
    CacheHarness(maximumBodySize: maximumBodySize) { _, index, _ in
      let fields = try HTTPFields([("Cache-Control", "max-age=60")])
      let chunks = Chunks(["a\(index)", "b", "c"], failure: index == 0 ? failure : nil)
      return (HTTPResponse(status: 200, headerFields: fields), HTTPBody(chunks, length: length))
    }
  }

  @Test func aStreamedBodyIsStoredWhenReadToTheEnd() async throws {
    let cache = streaming()
    #expect(try await cache.get() == (.miss, "a0bc"))
    #expect(try await cache.get() == (.hit, "a0bc"))
  }

  @Test func anAbandonedBodyIsNotStored() async throws {
    let cache = streaming()
    let (_, body) = try await cache.client.send(HTTPRequest(method: .get, url: testURL()))
    var iterator = body.makeAsyncIterator()
    _ = try await iterator.next()
    #expect(try await cache.get() == (.miss, "a1bc"))
  }

  @Test func aFailedBodyIsNotStored() async throws {
    let cache = streaming(failure: TestFailure(message: "cut"))
    await #expect(throws: TestFailure(message: "cut")) { try await cache.get() }
    #expect(try await cache.get() == (.miss, "a1bc"))
  }

  @Test func aStreamLargerThanTheLimitIsNotStoredButReachesTheCaller() async throws {
    let cache = streaming(maximumBodySize: 3)
    #expect(try await cache.get() == (.miss, "a0bc"))
    #expect(try await cache.get() == (.miss, "a1bc"))
  }

  @Test func aDeclaredLengthOverTheLimitIsNotStored() async throws {
    let cache = streaming(length: 4, maximumBodySize: 3)
    let (response, _) = try await cache.send()
    #expect(response.cacheStatus?.isStored == false)
  }
}
