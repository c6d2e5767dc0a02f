import EndpointCore
import EndpointTestSupport
import Testing

/// stale-while-revalidate: the stale response at once, one revalidation in the background.
@Suite struct CacheBackgroundRevalidationTests {
  private func harness() -> CacheHarness {
    CacheHarness { _, index, _ in
      reply(
        200, headers: [("Cache-Control", "max-age=10, stale-while-revalidate=60")],
        body: "v\(index)")
    }
  }

  // The revalidation is held until every caller has its answer: a caller that a busy machine
  // starts late would otherwise find the fresh response already stored. A cache that made its
  // callers wait for it would hang here: the time limit fails the test instead.
  @Test(.timeLimit(.minutes(1)))
  func staleIsServedAtOnceAndRevalidatedOnceHoweverManyCallersAsk() async throws {
    let (held, release) = AsyncStream<Never>.makeStream()
    let cache = CacheHarness { _, index, _ in
      if index > 0 { for await _ in held {} }
      return reply(
        200, headers: [("Cache-Control", "max-age=10, stale-while-revalidate=60")],
        body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(30)
    let results = try await withThrowingTaskGroup(of: (CacheOutcome?, String).self) {
      group in
      for _ in 0..<8 { group.addTask { try await cache.get() } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    release.finish()
    #expect(results.count == 8)
    #expect(results.allSatisfy { $0 == (.stale, "v0") })
    await cache.cache.waitForBackgroundRevalidations()
    #expect(cache.origin.requests.count == 2)
    #expect(try await cache.get() == (.hit, "v1"))
  }

  @Test func pastTheWindowTheRequestWaitsForTheNetwork() async throws {
    let cache = harness()
    _ = try await cache.get()
    cache.clock.advance(71)
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func requestNoCacheDoesNotGetAStaleResponse() async throws {
    let cache = harness()
    _ = try await cache.get()
    cache.clock.advance(30)
    #expect(try await cache.get(headers: [("Cache-Control", "no-cache")]) == (.miss, "v1"))
  }
}
