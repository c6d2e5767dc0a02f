import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct CacheFreshnessTests {
  @Test func maxAgeServesHitsUntilItExpires() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    #expect(try await cache.get() == (.miss, "v0"))
    cache.clock.advance(30)
    let (response, body) = try await cache.send()
    #expect(body == "v0")
    #expect(response.cacheStatus == CacheStatus(isHit: true, timeToLive: 30))
    #expect(response.headerFields["Age"] == "30")
    cache.clock.advance(31)
    #expect(try await cache.get() == (.miss, "v1"))
    #expect(cache.origin.requests.count == 2)
  }

  @Test func missSaysItWasStoredInCacheStatus() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    let (response, _) = try await cache.send()
    #expect(
      response.headerFields["Cache-Status"] == "Endpoint; fwd=uri-miss; fwd-status=200; stored")
  }

  @Test func expiresCountsFromTheDateField() async throws {
    let cache = CacheHarness { _, index, clock in
      reply(
        200, headers: [("Date", clock.httpDate()), ("Expires", clock.httpDate(100))],
        body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(99)
    #expect(try await cache.get() == (.hit, "v0"))
    cache.clock.advance(2)
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func invalidExpiresIsAlreadyStale() async throws {
    let cache = CacheHarness(headers: [("Expires", "0")])
    _ = try await cache.get()
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func ageFieldShortensFreshness() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60"), ("Age", "50")])
    _ = try await cache.get()
    cache.clock.advance(9)
    #expect(try await cache.get() == (.hit, "v0"))
    cache.clock.advance(2)
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func correctedInitialAgeAddsTheResponseDelay() async throws {
    // The origin takes 5 s to answer: Age 50 + 5 s in flight = 55 s old on arrival.
    let cache = CacheHarness { _, index, clock in
      clock.advance(5)
      return reply(
        200, headers: [("Cache-Control", "max-age=60"), ("Age", "50")],
        body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(4)
    let (response, _) = try await cache.send()
    #expect(response.cacheStatus?.outcome == .hit)
    #expect(response.headerFields["Age"] == "59")
    cache.clock.advance(2)
    #expect(try await cache.get().0 == .miss)
  }

  @Test func apparentAgeFromAnOldDateCounts() async throws {
    let cache = CacheHarness { _, index, clock in
      reply(
        200, headers: [("Cache-Control", "max-age=30"), ("Date", clock.httpDate(-20))],
        body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(9)
    #expect(try await cache.get() == (.hit, "v0"))
    cache.clock.advance(2)
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() async throws {
    let cache = CacheHarness { _, index, clock in
      reply(
        200, headers: [("Date", clock.httpDate()), ("Last-Modified", clock.httpDate(-1000))],
        body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(99)
    #expect(try await cache.get() == (.hit, "v0"))
    cache.clock.advance(2)
    #expect(try await cache.get().0 != .hit)
  }

  @Test func heuristicFreshnessIsCapped() async throws {
    let cache = CacheHarness(heuristicLimit: .seconds(60)) { _, index, clock in
      reply(200, headers: [("Last-Modified", clock.httpDate(-8_640_000))], body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(59)
    #expect(try await cache.get() == (.hit, "v0"))
    cache.clock.advance(2)
    #expect(try await cache.get().0 != .hit)
  }

  @Test func statusesWithoutHeuristicsAreNotStoredWithoutExplicitFreshness() async throws {
    let cache = CacheHarness { _, index, clock in
      reply(500, headers: [("Last-Modified", clock.httpDate(-1000))], body: "v\(index)")
    }
    let (response, _) = try await cache.send()
    #expect(response.cacheStatus?.isStored == false)
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func heuristicStatusWithExplicitFreshnessIsStored() async throws {
    let cache = CacheHarness(status: 404, headers: [("Cache-Control", "max-age=60")])
    _ = try await cache.get()
    let (response, body) = try await cache.send()
    #expect(response.status == 404)
    #expect(body == "v0")
  }

  @Test func noStoreResponseIsNotStored() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "no-store, max-age=60")])
    _ = try await cache.get()
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func noCacheResponseIsRevalidatedEveryTime() async throws {
    let cache = CacheHarness { request, index, _ in
      if request.headerFields["If-None-Match"] == "\"a\"" { return reply(304) }
      return reply(
        200, headers: [("Cache-Control", "no-cache, max-age=600"), ("ETag", "\"a\"")],
        body: "v\(index)")
    }
    _ = try await cache.get()
    #expect(try await cache.get() == (.revalidated, "v0"))
    #expect(try await cache.get() == (.revalidated, "v0"))
    #expect(cache.origin.requests.count == 3)
  }

  @Test func privateResponsesAreStoredAndSMaxAgeIsIgnored() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "private, max-age=10, s-maxage=600")])
    _ = try await cache.get()
    cache.clock.advance(9)
    #expect(try await cache.get() == (.hit, "v0"))
    cache.clock.advance(2)
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func mustRevalidateRefusesMaxStale() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=10, must-revalidate")])
    _ = try await cache.get()
    cache.clock.advance(20)
    #expect(try await cache.get(headers: [("Cache-Control", "max-stale")]) == (.miss, "v1"))
  }

  @Test func invalidOrRepeatedMaxAgeIsStale() async throws {
    for value in ["max-age=abc", "max-age=60, max-age=60", "max-age=-1"] {
      let cache = CacheHarness(headers: [("Cache-Control", value)])
      _ = try await cache.get()
      #expect(try await cache.get() == (.miss, "v1"), "\(value)")
    }
  }
}
