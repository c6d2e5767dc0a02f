import EndpointCore
import EndpointTestSupport
import Testing

@Suite struct CacheRequestDirectiveTests {
  private func fresh() async throws -> CacheHarness {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    _ = try await cache.get()
    return cache
  }

  @Test func noCacheGoesToTheNetworkWhileFresh() async throws {
    let cache = try await fresh()
    #expect(try await cache.get(headers: [("Cache-Control", "no-cache")]) == (.miss, "v1"))
  }

  @Test func pragmaNoCacheCountsWithoutCacheControl() async throws {
    let cache = try await fresh()
    #expect(try await cache.get(headers: [("Pragma", "no-cache")]) == (.miss, "v1"))
  }

  @Test func noStoreRequestIsNotStored() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    _ = try await cache.get(headers: [("Cache-Control", "no-store")])
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func maxAgeRefusesOlderResponses() async throws {
    let cache = try await fresh()
    cache.clock.advance(20)
    #expect(try await cache.get(headers: [("Cache-Control", "max-age=30")]) == (.hit, "v0"))
    #expect(try await cache.get(headers: [("Cache-Control", "max-age=10")]) == (.miss, "v1"))
  }

  @Test func maxStaleAcceptsStaleResponsesWithinItsBound() async throws {
    let cache = try await fresh()
    cache.clock.advance(80)
    let (response, body) = try await cache.send(headers: [("Cache-Control", "max-stale=30")])
    #expect(body == "v0")
    #expect(response.cacheStatus?.outcome == .stale)
    #expect(response.cacheStatus?.timeToLive == -20)
    #expect(try await cache.get(headers: [("Cache-Control", "max-stale=10")]) == (.miss, "v1"))
  }

  @Test func maxStaleWithoutAValueAcceptsAnyStaleness() async throws {
    let cache = try await fresh()
    cache.clock.advance(100_000)
    #expect(try await cache.get(headers: [("Cache-Control", "max-stale")]) == (.stale, "v0"))
  }

  @Test func minFreshRefusesResponsesAboutToExpire() async throws {
    let cache = try await fresh()
    cache.clock.advance(30)
    #expect(try await cache.get(headers: [("Cache-Control", "min-fresh=20")]) == (.hit, "v0"))
    #expect(try await cache.get(headers: [("Cache-Control", "min-fresh=40")]) == (.miss, "v1"))
  }

  @Test func onlyIfCachedAnswers504WithoutTheNetworkWhenNothingIsStored() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    let (response, _) = try await cache.send(headers: [("Cache-Control", "only-if-cached")])
    #expect(response.status == 504)
    #expect(cache.origin.requests.isEmpty)
  }

  @Test func onlyIfCachedAnswers504WhenTheStoredResponseIsStale() async throws {
    let cache = try await fresh()
    cache.clock.advance(61)
    let (response, _) = try await cache.send(headers: [("Cache-Control", "only-if-cached")])
    #expect(response.status == 504)
    #expect(cache.origin.requests.count == 1)
  }

  @Test func onlyIfCachedServesAFreshResponse() async throws {
    let cache = try await fresh()
    #expect(try await cache.get(headers: [("Cache-Control", "only-if-cached")]) == (.hit, "v0"))
  }

  @Test func noStoreRequestMayStillBeAnsweredFromTheStore() async throws {
    let cache = try await fresh()
    #expect(try await cache.get(headers: [("Cache-Control", "no-store")]) == (.hit, "v0"))
  }

  @Test func aResponseWithoutFreshnessIsStoredForMaxStaleButNeverServedFresh() async throws {
    let cache = CacheHarness(headers: [("Content-Type", "application/json")])
    _ = try await cache.get()
    #expect(try await cache.get() == (.miss, "v1"))
    #expect(try await cache.get(headers: [("Cache-Control", "max-stale")]) == (.stale, "v1"))
    #expect(
      try await cache.get(headers: [("Cache-Control", "max-stale, only-if-cached")])
        == (.stale, "v1"))
  }
}
