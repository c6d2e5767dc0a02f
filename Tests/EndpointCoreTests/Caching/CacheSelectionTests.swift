import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Vary, HEAD, ranges, size limits and invalidation.
@Suite struct CacheSelectionTests {
  @Test func varyKeepsOneVariantPerSelectingValue() async throws {
    let cache = CacheHarness { request, index, _ in
      reply(
        200, headers: [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")],
        body: "\(request.headerFields["Accept-Language"] ?? "none")-\(index)")
    }
    #expect(try await cache.get(headers: [("Accept-Language", "en")]) == (.miss, "en-0"))
    let (french, body) = try await cache.send(headers: [("Accept-Language", "fr")])
    #expect(body == "fr-1")
    #expect(french.cacheStatus?.forwardReason == "vary-miss")
    #expect(try await cache.get(headers: [("Accept-Language", "en")]) == (.hit, "en-0"))
    #expect(try await cache.get(headers: [("Accept-Language", "fr")]) == (.hit, "fr-1"))
    #expect(try await cache.get() == (.miss, "none-2"))
    #expect(try await cache.get() == (.hit, "none-2"))
  }

  @Test func varyStarNeverMatches() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60"), ("Vary", "*")])
    _ = try await cache.get()
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func headIsAnsweredFromAFreshGet() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60"), ("X-Item", "1")])
    _ = try await cache.get()
    let (response, body) = try await cache.send(.head)
    #expect(body.isEmpty)
    #expect(response.headerFields["X-Item"] == "1")
    #expect(response.cacheStatus?.outcome == .hit)
    #expect(cache.origin.requests.count == 1)
  }

  @Test func headWithNothingStoredGoesToTheNetworkAndIsNotStored() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    _ = try await cache.send(.head)
    #expect(try await cache.get() == (.miss, "v1"))
    #expect(cache.origin.requests.map(\.method) == [.head, .get])
  }

  @Test func oneRangeIsAnsweredFromAFreshStoredResponseAndOthersPassThrough() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    _ = try await cache.get()
    let (partial, body) = try await cache.send(headers: [("Range", "bytes=1-")])
    #expect(partial.status == 206)
    #expect(partial.cacheStatus?.outcome == .hit)
    #expect(partial.headerFields["Content-Range"] == "bytes 1-1/2")
    #expect(body == "0")
    // Several ranges, or a condition of the caller's own, go to the server untouched.
    #expect(try await cache.get(headers: [("Range", "bytes=0-0,1-1")]) == (.miss, "v1"))
    #expect(
      try await cache.get(headers: [("Range", "bytes=0-1"), ("If-Range", "\"x\"")])
        == (.miss, "v2"))
    // The answer to several ranges is not stored; the whole 200 the server sent for an
    // If-Range it did not match is, in place of the older one.
    #expect(try await cache.get() == (.hit, "v2"))
    #expect(cache.origin.requests.count == 3)
  }

  @Test func aPartNeverAnswersAWholeRequestAndA200WithContentRangeIsNotStored() async throws {
    for (status, headers) in [
      (206, [("Content-Range", "bytes 0-1/10")]), (200, [("Content-Range", "bytes 0-1/2")]),
    ] {
      let cache = CacheHarness(status: status, headers: headers + [("Cache-Control", "max-age=60")])
      _ = try await cache.get()
      #expect(try await cache.get() == (.miss, "v1"))
      // The 206 is stored and answers the range it holds; the 200 that carries a
      // Content-Range says something no status defines, and is not stored.
      let expected: (CacheOutcome?, String) = status == 206 ? (.hit, "v1") : (.miss, "v2")
      #expect(try await cache.get(headers: [("Range", "bytes=0-1")]) == expected, "\(status)")
    }
  }

  @Test func bodiesOverTheLimitAreNotStored() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")], maximumBodySize: 1)
    _ = try await cache.get()
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func callersOwnConditionalRequestsPassThrough() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    _ = try await cache.get()
    #expect(try await cache.get(headers: [("If-None-Match", "\"x\"")]) == (.miss, "v1"))
  }

  @Test func successfulUnsafeMethodsInvalidateTheTarget() async throws {
    for method in [HTTPMethod.post, .put, .patch, .delete] {
      let cache = CacheHarness { request, index, _ in
        reply(200, headers: [("Cache-Control", "max-age=60")], body: "v\(index)")
      }
      _ = try await cache.get()
      _ = try await cache.send(method)
      #expect(try await cache.get() == (.miss, "v2"), "\(method)")
    }
  }

  @Test func failedUnsafeMethodsDoNotInvalidate() async throws {
    let cache = CacheHarness { request, index, _ in
      request.method == .post ? reply(500) : reply(200, headers: [("Cache-Control", "max-age=60")])
    }
    _ = try await cache.get()
    _ = try await cache.send(.post)
    #expect(try await cache.get().0 == .hit)
  }

  @Test func sameOriginLocationAndContentLocationAreInvalidatedButNotOtherOrigins() async throws {
    let cache = CacheHarness { request, index, _ in
      if request.method == .post {
        return reply(
          201,
          headers: [
            ("Location", "/items/1"), ("Content-Location", "https://api.example.com/items/2"),
            ("X-Other", "x"),
          ])
      }
      return reply(200, headers: [("Cache-Control", "max-age=60")], body: "v\(index)")
    }
    let urls = [
      "https://api.example.com/items/1", "https://api.example.com/items/2",
      "https://api.example.com/items/3",
    ]
    for url in urls { _ = try await cache.get(url) }
    _ = try await cache.send(.post, "https://api.example.com/new")
    #expect(try await cache.get(urls[0]).0 == .miss)
    #expect(try await cache.get(urls[1]).0 == .miss)
    #expect(try await cache.get(urls[2]).0 == .hit)
  }

  @Test func otherOriginLocationIsNotInvalidated() async throws {
    let cache = CacheHarness { request, index, _ in
      request.method == .delete
        ? reply(200, headers: [("Location", "https://other.example.com/items")])
        : reply(200, headers: [("Cache-Control", "max-age=60")], body: "v\(index)")
    }
    _ = try await cache.get("https://other.example.com/items")
    _ = try await cache.send(.delete, "https://api.example.com/x")
    #expect(try await cache.get("https://other.example.com/items").0 == .hit)
  }

  @Test func theFragmentIsNotPartOfTheKey() async throws {
    let cache = CacheHarness(headers: [("Cache-Control", "max-age=60")])
    _ = try await cache.get("https://api.example.com/items#a")
    #expect(try await cache.get("https://api.example.com/items#b") == (.hit, "v0"))
  }

  @Test func setCookieIsStoredAndReplayedButNeverShownInADump() async throws {
    let store = CacheMiddleware.memoryStore()
    let cache = CacheHarness(store: store) { _, index, _ in
      reply(
        200, headers: [("Cache-Control", "max-age=60"), ("Set-Cookie", "session=s3cret")],
        body: "v\(index)")
    }
    let (first, _) = try await cache.send()
    #expect(first.headerFields["Set-Cookie"] == "session=s3cret")
    let (hit, _) = try await cache.send()
    #expect(hit.cacheStatus?.outcome == .hit)
    // A private cache keeps the cookies of the response it stored (RFC 9111 §3.1); the
    // transport's cookie store sees only responses from the network.
    #expect(hit.headerFields["Set-Cookie"] == "session=s3cret")
    let stored = try await store.entries(for: "https://api.example.com/items")
    #expect(stored.allSatisfy { $0.headerFields["Set-Cookie"] == "session=s3cret" })
    var dumped = ""
    dump(stored, to: &dumped)
    #expect(!dumped.contains("s3cret"))
  }

  @Test func credentialsInVaryAreMatchedButNeverStored() async throws {
    let store = CacheMiddleware.memoryStore()
    let cache = CacheHarness(store: store) { request, index, _ in
      reply(
        200, headers: [("Cache-Control", "max-age=60"), ("Vary", "Authorization")],
        body: "v\(index)")
    }
    let alice = [("Authorization", "Bearer alice-token")]
    let bob = [("Authorization", "Bearer bob-token")]
    #expect(try await cache.get(headers: alice) == (.miss, "v0"))
    #expect(try await cache.get(headers: bob) == (.miss, "v1"))
    #expect(try await cache.get(headers: alice) == (.hit, "v0"))
    let stored = try await store.entries(for: "https://api.example.com/items")
    #expect(stored.count == 2)
    for entry in stored {
      #expect(entry.varyValues.values.allSatisfy { !$0.contains("token") })
    }
  }
}
