import EndpointTestSupport
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `Cache-Control` and `Pragma` as RFC 9111 §5.2 and §5.4 read them, conservatively: a lifetime
/// that cannot be read is never read as a long one. Each against an origin that counts, with
/// both stores.
@Suite struct CacheDirectiveParsingTests {
  @Test(arguments: StoreKind.allCases)
  func anUnreadableOrRepeatedMaxAgeIsStale(store kind: StoreKind) async throws {
    try await kind.run { store in
      for value in [
        "max-age=100a", "max-age=1.5", "max-age=\"1.5\"", "max-age = 100", "max-age =100",
        "max-age= 100", "max-age=100, max-age=100", "max-age=100, max-age=200", "max-age=-1",
        "max-age=", "max-age=+100", "max-age=\"100", "max-age",
      ] {
        let cache = CacheHarness(store: store) { _, index, _ in
          reply(200, headers: [("Cache-Control", value)], body: "v\(index)")
        }
        let url = "https://api.example.com/cc/\(value.hashValue)"
        _ = try await cache.get(url)
        cache.clock.advance(1)
        #expect(try await cache.get(url) == (.miss, "v1"), "\(value)")
        #expect(cache.origin.requests.count == 2)
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aReadableMaxAgeIsReadInEitherForm(store kind: StoreKind) async throws {
    try await kind.run { store in
      for value in [
        "max-age=100", "max-age=\"100\"", "MAX-AGE=100", " public ,  max-age=100 ",
        "max-age=100, no-cache=\"X-Secret\"",
      ] {
        let cache = CacheHarness(store: store) { _, index, _ in
          reply(200, headers: [("Cache-Control", value)], body: "v\(index)")
        }
        let url = "https://api.example.com/cc/\(value.hashValue)"
        _ = try await cache.get(url)
        cache.clock.advance(50)
        #expect(try await cache.get(url) == (.hit, "v0"), "\(value)")
      }
    }
  }

  @Test func requestDirectivesThatCannotBeReadAreReadStrictly() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=100")])
    _ = try await cache.get()
    cache.clock.advance(10)
    // max-age=abc reads as 0: the response is too old.
    #expect(try await cache.get(headers: [("Cache-Control", "max-age=abc")]) == (.miss, "v1"))
    cache.clock.advance(10)
    // min-fresh=abc reads as the longest: no stored response is fresh enough.
    #expect(try await cache.get(headers: [("Cache-Control", "min-fresh=abc")]) == (.miss, "v2"))
    #expect(try await cache.get(headers: [("Cache-Control", "min-fresh=10")]) == (.hit, "v2"))
  }

  @Test(arguments: StoreKind.allCases)
  func pragmaNoCacheCountsOnlyWithoutCacheControlAndAsAWholeMember(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(200, headers: [("Cache-Control", "max-age=100")], body: "v\(index)")
      }
      _ = try await cache.get()
      #expect(try await cache.get(headers: [("Pragma", "no-cache")]) == (.miss, "v1"))
      #expect(try await cache.get(headers: [("Pragma", "x, No-Cache")]) == (.miss, "v2"))
      #expect(try await cache.get(headers: [("Pragma", "no-cache-please")]) == (.hit, "v2"))
      #expect(
        try await cache.get(headers: [("Pragma", "no-cache"), ("Cache-Control", "max-stale")])
          == (.hit, "v2"))
      #expect(cache.origin.requests.count == 3)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aRequestsNoStoreStoresNothingButMayBeAnsweredFromTheStore(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { request, index, _ in
        request.headerFields.contains("If-None-Match")
          ? reply(304, headers: [("Cache-Control", "max-age=100")])
          : reply(
            200, headers: [("Cache-Control", "max-age=10"), ("ETag", "\"a\"")],
            body: "v\(index)")
      }
      let noStore = [("Cache-Control", "no-store")]
      _ = try await cache.get(headers: noStore)
      #expect(try await cache.get() == (.miss, "v1"))
      #expect(try await cache.get(headers: noStore) == (.hit, "v1"))
      cache.clock.advance(20)
      // The 304 answers this request, but updates nothing.
      #expect(try await cache.get(headers: noStore) == (.revalidated, "v1"))
      #expect(try await cache.get() == (.revalidated, "v1"))
      #expect(try await cache.get() == (.hit, "v1"))
      #expect(cache.origin.requests.count == 4)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aQualifiedNoCacheStoresTheResponseWithoutItsFields(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(
          200,
          headers: [
            ("Cache-Control", "no-cache=\"X-Secret, Set-Cookie\", max-age=600"),
            ("X-Secret", "s\(index)"), ("Set-Cookie", "a=\(index)"), ("X-Public", "p"),
          ], body: "v\(index)")
      }
      _ = try await cache.get()
      let (response, body) = try await cache.send()
      #expect(body == "v0")
      #expect(response.cacheStatus?.outcome == .hit)
      #expect(!response.headerFields.contains("X-Secret"))
      #expect(!response.headerFields.contains("Set-Cookie"))
      #expect(response.headerFields["X-Public"] == "p")
      let stored = try #require(try await store.entries(for: "https://api.example.com/items").first)
      #expect(!stored.headerFields.contains("X-Secret"))
      #expect(cache.origin.requests.count == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aQualifiedPrivateKeepsItsFieldsInThisPrivateCache(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(
          200,
          headers: [("Cache-Control", "private=\"X-User\", max-age=600"), ("X-User", "u\(index)")],
          body: "v\(index)")
      }
      _ = try await cache.get()
      let (response, body) = try await cache.send()
      #expect(body == "v0")
      #expect(response.cacheStatus?.outcome == .hit)
      #expect(response.headerFields["X-User"] == "u0")
      #expect(cache.origin.requests.count == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func mustUnderstandStoresAnUnderstoodStatusDespiteNoStore(store kind: StoreKind) async throws {
    try await kind.run { store in
      for (status, stored) in [(200, true), (404, true), (299, false), (206, false)] {
        let cache = CacheHarness(store: store) { _, index, _ in
          reply(
            status, headers: [("Cache-Control", "no-store, must-understand, max-age=60")],
            body: "v\(index)")
        }
        let url = "https://api.example.com/understood/\(status)"
        _ = try await cache.get(url)
        let expected: CacheOutcome = stored ? .hit : .miss
        #expect(try await cache.get(url) == (expected, stored ? "v0" : "v1"), "\(status)")
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anImmutableFreshResponseIsServedDespiteARequestMaxAgeOfZero(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { request, index, _ in
        request.headerFields.contains("If-None-Match")
          ? reply(304)
          : reply(
            200, headers: [("Cache-Control", "max-age=600, immutable"), ("ETag", "\"a\"")],
            body: "v\(index)")
      }
      _ = try await cache.get()
      cache.clock.advance(30)
      let reload = [("Cache-Control", "max-age=0")]
      #expect(try await cache.get(headers: reload) == (.hit, "v0"))
      // A forced reload still goes to the server.
      #expect(try await cache.get(headers: [("Cache-Control", "no-cache")]) == (.revalidated, "v0"))
      cache.clock.advance(600)
      // Stale, immutable no longer counts.
      #expect(try await cache.get(headers: reload) == (.revalidated, "v0"))
      #expect(cache.origin.requests.count == 3)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aLastModifiedOnlySecondsOldGivesNoHeuristicFreshness(store kind: StoreKind) async throws {
    try await kind.run { store in
      for (age, fresh) in [(5.0, false), (9.0, false), (100.0, true)] {
        let cache = CacheHarness(store: store) { _, index, clock in
          reply(
            200, headers: [("Date", clock.httpDate()), ("Last-Modified", clock.httpDate(-age))],
            body: "v\(index)")
        }
        let url = "https://api.example.com/modified/\(Int(age))"
        _ = try await cache.get(url)
        let expected: CacheOutcome = fresh ? .hit : .miss
        #expect(try await cache.get(url) == (expected, fresh ? "v0" : "v1"), "\(age)")
        if fresh {
          // A tenth of 100 s.
          cache.clock.advance(10)
          #expect(try await cache.get(url) == (.miss, "v1"))
        }
      }
    }
  }

  @Test func aRangeIsOneByteRangeWithinTheBody() {
    let cases: [(String, Range<Int>?)] = [
      ("bytes=0-3", 0..<4), ("bytes=2-", 2..<10), ("bytes=-3", 7..<10), ("bytes=5-99", 5..<10),
      ("BYTES=0-0", 0..<1), ("bytes=-20", 0..<10), ("bytes=10-", nil), ("bytes=3-2", nil),
      ("bytes=-0", nil), ("bytes=0-1,3-4", nil), ("items=0-3", nil), ("bytes=a-3", nil),
      ("bytes= 0-3", 0..<4), ("bytes=-", nil), ("bytes=+1-3", nil),
    ]
    for (value, expected) in cases {
      #expect(CacheMiddleware.byteRange([value], length: 10) == expected, "\(value)")
    }
    #expect(CacheMiddleware.byteRange(["bytes=0-1", "bytes=2-3"], length: 10) == nil)
  }

  @Test func aContentRangeIsOneByteRangeOfAKnownLength() {
    let cases: [(String, Range<Int>?, Int)] = [
      ("bytes 0-9/20", 0..<10, 20), ("BYTES 19-19/20", 19..<20, 20), (" bytes 5-9/10 ", 5..<10, 10),
      ("bytes 0-9/*", nil, 0), ("bytes */20", nil, 0), ("bytes 9-0/20", nil, 0),
      ("bytes 0-20/20", nil, 0), ("items 0-9/20", nil, 0), ("bytes 0-9", nil, 0),
      ("bytes  0-9/20", nil, 0), ("bytes 0-9/20/30", nil, 0), ("bytes 0--9/20", nil, 0),
      ("bytes +0-9/20", nil, 0), ("bytes 0-99999999999999999999/20", nil, 0),
    ]
    for (value, range, length) in cases {
      let parsed = ContentRange([value])
      #expect(parsed?.range == range, "\(value)")
      if let range { #expect(parsed == ContentRange(range: range, length: length), "\(value)") }
    }
    #expect(ContentRange(["bytes 0-1/2", "bytes 0-1/2"]) == nil)
  }
}
