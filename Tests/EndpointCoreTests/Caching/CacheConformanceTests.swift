import EndpointTestSupport
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The required behaviours of RFC 9111, each against an origin that counts what it receives,
/// with the memory store and the disk store.
@Suite struct CacheConformanceTests {
  // MARK: Age (§5.1)

  @Test(arguments: StoreKind.allCases)
  func anAgeListCountsItsFirstMember(store kind: StoreKind) async throws {
    try await kind.run { store in
      for ages in [["7200, 0"], ["7200", "0"], [" , 7200, 0"]] {
        let cache = CacheHarness(store: store) { _, index, _ in
          reply(
            200, headers: [("Cache-Control", "max-age=3600")] + ages.map { ("Age", $0) },
            body: "v\(index)")
        }
        _ = try await cache.get("https://api.example.com/age/\(ages.count)/\(ages[0].count)")
        #expect(
          try await cache.get("https://api.example.com/age/\(ages.count)/\(ages[0].count)")
            == (.miss, "v1"), "\(ages)")
        #expect(cache.origin.requests.count == 2)
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anAgeThatIsNoNumberIsReadAsTooOldToBeFresh(store kind: StoreKind) async throws {
    try await kind.run { store in
      for age in ["10abc", "-5", "1.5", "0x10", "\"10\""] {
        let cache = CacheHarness(store: store) { _, index, _ in
          reply(200, headers: [("Cache-Control", "max-age=3600"), ("Age", age)], body: "v\(index)")
        }
        let url = "https://api.example.com/age?\(age.utf8.count)\(age.first.map(String.init) ?? "")"
        _ = try await cache.get(url)
        #expect(try await cache.get(url) == (.miss, "v1"), "\(age)")
      }
      // A plain number is read as it is.
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(
          200, headers: [("Cache-Control", "max-age=3600"), ("Age", " 10 ")], body: "v\(index)")
      }
      _ = try await cache.get()
      let (response, body) = try await cache.send()
      #expect(body == "v0")
      #expect(response.headerFields["Age"] == "10")
    }
  }

  @Test(arguments: StoreKind.allCases)
  func theServedAgeIncludesTheTimeTheOriginTook(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, clock in
        clock.advance(5)
        return reply(200, headers: [("Cache-Control", "max-age=60")], body: "v\(index)")
      }
      _ = try await cache.get()
      let (response, _) = try await cache.send()
      #expect(response.headerFields["Age"] == "5")
      #expect(response.cacheStatus?.timeToLive == 55)
    }
  }

  // MARK: Dates (RFC 9110 §5.6.7)

  @Test(arguments: StoreKind.allCases)
  func anExpiresThatIsNoExactHTTPDateIsAlreadyStale(store kind: StoreKind) async throws {
    try await kind.run { store in
      for expires in [
        "Thu, 18  Aug  2050 07:00:00 GMT", "Thu, 18 Aug 2050 07:00:00  GMT",
        "thu, 18 aug 2050 07:00:00 gmt", "Thu, 18 AUG 2050 07:00:00 GMT",
        "Thu, 18 Aug 2050 07:00:00 gmt", "Thursday, 18-aug-50 07:00:00 GMT",
        "Thu Aug 18 07:00:00 2050 ", "Thu\tAug 18 07:00:00 2050",
      ] {
        let cache = CacheHarness(store: store) { _, index, _ in
          reply(200, headers: [("Expires", expires)], body: "v\(index)")
        }
        let url = "https://api.example.com/expires/\(expires.hashValue)"
        _ = try await cache.get(url)
        #expect(try await cache.get(url) == (.miss, "v1"), "\(expires)")
      }
      // The exact forms keep it fresh.
      for expires in [
        "Thu, 18 Aug 2050 07:00:00 GMT", "Thursday, 18-Aug-50 07:00:00 GMT",
        "Thu Aug 18 07:00:00 2050", "Sun Aug  7 07:00:00 2050",
      ] {
        let cache = CacheHarness(store: store) { _, index, _ in
          reply(200, headers: [("Expires", expires)], body: "v\(index)")
        }
        let url = "https://api.example.com/expires/\(expires.hashValue)"
        _ = try await cache.get(url)
        #expect(try await cache.get(url) == (.hit, "v0"), "\(expires)")
      }
    }
  }

  // MARK: Stored fields (§3.1)

  @Test(arguments: StoreKind.allCases)
  func hopByHopAndConnectionListedFieldsAreNeitherStoredNorServed(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(
          200,
          headers: [
            ("Cache-Control", "max-age=60"), ("Connection", "X-Hop, keep-alive"),
            ("X-Hop", "1"), ("Keep-Alive", "timeout=5"), ("Transfer-Encoding", "chunked"),
            ("Upgrade", "h2c"), ("Proxy-Authenticate", "Basic"), ("TE", "trailers"),
            ("Proxy-Connection", "keep-alive"), ("Proxy-Authentication-Info", "nextnonce=x"),
            ("Proxy-Authorization", "Basic eA=="), ("X-Kept", "yes"),
          ], body: "v\(index)")
      }
      _ = try await cache.get()
      let hopByHop = [
        "Connection", "X-Hop", "Keep-Alive", "Transfer-Encoding", "Upgrade",
        "Proxy-Authenticate", "TE", "Proxy-Connection", "Proxy-Authentication-Info",
        "Proxy-Authorization",
      ]
      let stored = try #require(try await store.entries(for: "https://api.example.com/items").first)
      for name in hopByHop { #expect(!stored.headerFields.contains(name), "\(name)") }
      let (response, body) = try await cache.send()
      #expect(body == "v0")
      #expect(response.headerFields["X-Kept"] == "yes")
      for name in hopByHop { #expect(!response.headerFields.contains(name), "\(name)") }
      #expect(cache.origin.requests.count == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func hopByHopFieldsAlreadyInTheStoreAreNotServed(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, _, _ in reply(500) }
      let url = testURL("https://api.example.com/items")
      try await store.setEntries(
        [
          CachedResponse(
            url: url, status: 200,
            headerFields: try HTTPFields([
              ("Cache-Control", "max-age=60"), ("Connection", "X-Hop"), ("X-Hop", "1"),
              ("Transfer-Encoding", "chunked"),
            ]), body: Data("old".utf8), requestTime: cache.clock.now,
            responseTime: cache.clock.now)
        ], for: url.absoluteString)
      let (response, body) = try await cache.send()
      #expect(body == "old")
      for name in ["Connection", "X-Hop", "Transfer-Encoding"] {
        #expect(!response.headerFields.contains(name), "\(name)")
      }
      #expect(cache.origin.requests.isEmpty)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func setCookieIsStoredAndServed(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(
          200,
          headers: [
            ("Cache-Control", "max-age=60"), ("Set-Cookie", "session=\(index); Path=/"),
            ("Set-Cookie", "theme=dark"),
          ], body: "v\(index)")
      }
      _ = try await cache.get()
      let (response, body) = try await cache.send()
      #expect(body == "v0")
      #expect(response.cacheStatus?.outcome == .hit)
      #expect(
        response.headerFields.values(for: "Set-Cookie") == ["session=0; Path=/", "theme=dark"])
      #expect(cache.origin.requests.count == 1)
    }
  }

  // MARK: Validation (§4.3.4)

  @Test(arguments: StoreKind.allCases)
  func a304SelectsTheStoredResponseByTheRFCsComparison(store kind: StoreKind) async throws {
    // (stored ETag, 304's ETag, whether the 304 updates the stored response)
    let cases: [(String, String, Bool)] = [
      ("\"a\"", "\"a\"", true),
      ("W/\"a\"", "W/\"a\"", true),
      ("\"a\"", "W/\"a\"", true),  // weak comparison for a weak validator
      ("W/\"a\"", "\"a\"", false),  // a strong validator needs the same strong one
      ("\"a\"", "\"b\"", false),
      ("\"a\"", "a", false),  // unquoted: no entity-tag at all
    ]
    try await kind.run { store in
      for (stored, received, updates) in cases {
        let cache = CacheHarness(store: store) { request, index, _ in
          if request.headerFields.contains("If-None-Match") {
            return reply(304, headers: [("ETag", received), ("X-Version", "304")])
          }
          return reply(
            200, headers: [("Cache-Control", "max-age=0"), ("ETag", stored)], body: "v\(index)")
        }
        let url = "https://api.example.com/tags/\(stored.hashValue)/\(received.hashValue)"
        _ = try await cache.get(url)
        let (response, body) = try await cache.send(.get, url)
        let sent = cache.origin.requests.map { $0.headerFields.contains("If-None-Match") }
        if updates {
          #expect(response.cacheStatus?.outcome == .revalidated, "\(stored) \(received)")
          #expect(body == "v0")
          #expect(response.headerFields["X-Version"] == "304")
          #expect(sent == [false, true])
        } else {
          #expect(response.cacheStatus?.outcome == .miss, "\(stored) \(received)")
          #expect(body == "v2")
          #expect(sent == [false, true, false])
        }
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func a304ThatSelectsNothingForgetsTheStoredResponse(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { request, index, _ in
        if request.headerFields.contains("If-None-Match") {
          return reply(304, headers: [("ETag", "\"other\"")])
        }
        // The new representation may not be stored: the old one must not linger.
        return reply(
          200,
          headers: [("Cache-Control", index == 0 ? "max-age=0" : "no-store"), ("ETag", "\"a\"")],
          body: "v\(index)")
      }
      _ = try await cache.get()
      #expect(try await cache.get() == (.miss, "v2"))
      let offline = [("Cache-Control", "only-if-cached, max-stale")]
      #expect(try await cache.send(headers: offline).0.status == 504)
      #expect(cache.origin.requests.count == 3)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func a304WithAnotherLastModifiedSelectsNothing(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { request, index, _ in
        if request.headerFields.contains("If-Modified-Since") {
          return reply(304, headers: [("Last-Modified", "Mon, 07 Nov 1994 08:49:37 GMT")])
        }
        return reply(
          200,
          headers: [
            ("Cache-Control", "no-cache"), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"),
          ], body: "v\(index)")
      }
      _ = try await cache.get()
      #expect(try await cache.get() == (.miss, "v2"))
      #expect(cache.origin.requests.count == 3)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func a304WithoutDateOrAgeLeavesNoneOfTheOldOnes(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { request, index, clock in
        request.headerFields.contains("If-None-Match")
          ? reply(304, headers: [("Cache-Control", "max-age=100")])
          : reply(
            200,
            headers: [
              ("Cache-Control", "max-age=10"), ("ETag", "\"a\""), ("Age", "5"),
              ("Date", clock.httpDate()),
            ], body: "v\(index)")
      }
      _ = try await cache.get()
      cache.clock.advance(60)
      let (response, body) = try await cache.send()
      #expect(body == "v0")
      #expect(response.cacheStatus?.outcome == .revalidated)
      #expect(response.headerFields["Age"] == "0")
      #expect(response.headerFields["Date"] == nil)
      // Fresh for the 304's 100 s from now, not from the first response's Date.
      cache.clock.advance(90)
      #expect(try await cache.get() == (.hit, "v0"))
      #expect(cache.origin.requests.count == 2)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anInvalidLastModifiedIsNoValidator(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(
          200,
          headers: [("Cache-Control", "no-cache"), ("Last-Modified", "yesterday")],
          body: "v\(index)")
      }
      _ = try await cache.get()
      #expect(try await cache.get() == (.miss, "v1"))
      #expect(cache.origin.requests.allSatisfy { !$0.headerFields.contains("If-Modified-Since") })
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anUnquotedETagIsNoValidator(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        reply(200, headers: [("Cache-Control", "max-age=0"), ("ETag", "abc")], body: "v\(index)")
      }
      _ = try await cache.get()
      #expect(try await cache.get() == (.miss, "v1"))
      #expect(cache.origin.requests.allSatisfy { !$0.headerFields.contains("If-None-Match") })
    }
  }

  // MARK: HEAD (§4.3.5)

  /// An origin whose `GET` is fresh for 10 s with `ETag: "a"`, and whose `HEAD` answers
  /// `head`; the `GET` has been stored and has gone stale.
  private static func staleGet(
    _ store: any CacheStore,
    head: [(String, String)]
  ) async throws -> CacheHarness {
    let cache = CacheHarness(store: store) { request, index, _ in
      request.method == .head
        ? reply(200, headers: head + [("X-Method", "HEAD")])
        : reply(
          200, headers: [("Cache-Control", "max-age=10"), ("ETag", "\"a\""), ("X-Method", "GET")],
          body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(20)
    let (head, _) = try await cache.send(.head)
    #expect(head.cacheStatus?.outcome == .miss)
    return cache
  }

  @Test(arguments: StoreKind.allCases)
  func aHeadResponseFreshensTheStoredGet(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = try await Self.staleGet(
        store, head: [("Cache-Control", "max-age=100"), ("ETag", "\"a\"")])
      let (response, body) = try await cache.send()
      #expect(response.cacheStatus?.outcome == .hit)
      #expect(body == "v0")
      #expect(response.headerFields["X-Method"] == "HEAD")
      #expect(cache.origin.requests.map(\.method) == [.get, .head])
    }
  }

  /// A `HEAD` response for another representation, or one that forbids storing, leaves no
  /// stored `GET` behind.
  @Test(arguments: StoreKind.allCases)
  func aHeadResponseThatDoesNotFitForgetsTheStoredGet(store kind: StoreKind) async throws {
    try await kind.run { store in
      for head in [
        [("Cache-Control", "max-age=100"), ("ETag", "\"b\"")],
        [("Cache-Control", "no-store"), ("ETag", "\"a\"")],
      ] {
        let cache = try await Self.staleGet(store, head: head)
        let offline = [("Cache-Control", "only-if-cached, max-stale")]
        #expect(try await cache.send(headers: offline).0.status == 504, "\(head)")
        #expect(cache.origin.requests.map(\.method) == [.get, .head])
      }
    }
  }

  // MARK: POST (RFC 9110 §9.3.3)

  @Test(arguments: StoreKind.allCases)
  func aPostResponseIsNotStoredEvenWithFreshnessAndItsOwnContentLocation(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { request, index, _ in
        reply(
          200,
          headers: [
            ("Cache-Control", "max-age=600"),
            ("Content-Location", "https://api.example.com/items"),
          ], body: "\(request.method.rawValue) v\(index)")
      }
      _ = try await cache.send(.post)
      #expect(try await cache.get() == (.miss, "GET v1"))
      #expect(try await cache.get() == (.hit, "GET v1"))
      #expect(cache.origin.requests.map(\.method) == [.post, .get])
    }
  }

  // MARK: Trailers

  @Test(arguments: StoreKind.allCases)
  func theTrailerFieldsOfAResponseFromTheNetworkReachTheCaller(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        let (response, _) = reply(200, headers: [("Cache-Control", "max-age=60")])
        let chunks = AsyncStream<Data> { continuation in
          continuation.yield(Data("v\(index)".utf8))
          continuation.finish()
        }
        var body = HTTPBody(chunks, length: nil)
        let trailers: HTTPFields = ["X-Checksum": "c\(index)"]
        body.trailers = { trailers }
        return (response, body)
      }
      let (_, body) = try await cache.client.send(
        HTTPRequest(method: .get, url: testURL("https://api.example.com/items")))
      #expect(String(decoding: try await body.collect(), as: UTF8.self) == "v0")
      #expect(body.trailerFields?["X-Checksum"] == "c0")
      // The stored response was read to its end: the next one is a hit, without trailers.
      let (hit, hitBody) = try await cache.client.send(
        HTTPRequest(method: .get, url: testURL("https://api.example.com/items")))
      #expect(hit.cacheStatus?.outcome == .hit)
      #expect(try await hitBody.collect() == Data("v0".utf8))
      #expect(hitBody.trailerFields == nil)
    }
  }
}
