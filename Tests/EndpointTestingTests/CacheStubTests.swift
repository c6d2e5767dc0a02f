import EndpointCore
import EndpointPrimitives
import EndpointTestSupport
import EndpointTesting
import Foundation
import Synchronization
import Testing

/// ``CacheMiddleware`` in front of a ``StubClient``: the cache works the same over a test double.
@Suite struct CacheStubTests {
  private final class Now: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
    var provider: @Sendable () -> Date { { self.date.withVisibleLock { $0 } } }
    func advance(_ seconds: Double) { date.withVisibleLock { $0 = $0.addingTimeInterval(seconds) } }
  }

  @Test func freshHitsThenA304RevalidationOverAStub() async throws {
    let stub = StubClient()
    let url = try #require(URL(string: "https://api.example.com/items"))
    let revalidation = stub.on(.get, url: url)
      .header("If-None-Match", "\"a\"").reply(
        .status(304, headers: ["Cache-Control": "max-age=60"]))
    stub.on(.get, url: url)
      .reply(.text("items", headers: ["Cache-Control": "max-age=60", "ETag": "\"a\""])).once()
    let now = Now()
    let client = stub.with(CacheMiddleware(now: now.provider))
    let request = HTTPRequest(method: .get, url: url)
    func get() async throws -> (CacheOutcome?, String) {
      let (response, body) = try await client.send(request)
      return (
        response.cacheStatus?.outcome, String(decoding: try await body.collect(), as: UTF8.self)
      )
    }
    #expect(try await get() == (.miss, "items"))
    now.advance(59)
    #expect(try await get() == (.hit, "items"))
    now.advance(2)
    #expect(try await get() == (.revalidated, "items"))
    #expect(try await get() == (.hit, "items"))
    #expect(revalidation.matchCount == 1)
    try stub.verify()
  }
}
