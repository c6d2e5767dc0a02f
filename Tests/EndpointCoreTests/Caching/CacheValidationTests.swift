import EndpointCore
import EndpointTestSupport
import Testing

@Suite struct CacheValidationTests {
  @Test func staleEntryIsRevalidatedWithItsValidatorsAnd304ServesTheStoredBody() async throws {
    let cache = CacheHarness { request, index, _ in
      if index > 0 { return reply(304, headers: [("Cache-Control", "max-age=100")]) }
      return reply(
        200,
        headers: [
          ("Cache-Control", "max-age=10"), ("ETag", "\"v1\""),
          ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Content-Type", "text/plain"),
        ], body: "stored")
    }
    _ = try await cache.get()
    cache.clock.advance(20)
    let (response, body) = try await cache.send()
    #expect(body == "stored")
    #expect(response.cacheStatus?.outcome == .revalidated)
    let conditional = try #require(cache.origin.requests.last).headerFields
    #expect(conditional["If-None-Match"] == "\"v1\"")
    #expect(conditional["If-Modified-Since"] == "Sun, 06 Nov 1994 08:49:37 GMT")
    // The 304's Cache-Control replaced the stored one: fresh for 100 s more.
    #expect(response.headerFields["Cache-Control"] == "max-age=100")
    #expect(response.headerFields["Content-Type"] == "text/plain")
    cache.clock.advance(90)
    #expect(try await cache.get() == (.hit, "stored"))
    #expect(cache.origin.requests.count == 2)
  }

  @Test func a304DoesNotReplaceTheStoredBodysLength() async throws {
    let cache = CacheHarness { _, index, _ in
      index > 0
        ? reply(304, headers: [("Content-Length", "0"), ("X-Version", "2")])
        : reply(
          200,
          headers: [
            ("Cache-Control", "max-age=0"), ("ETag", "\"a\""), ("Content-Length", "6"),
            ("X-Version", "1"),
          ], body: "stored")
    }
    _ = try await cache.get()
    let (response, body) = try await cache.send()
    #expect(body == "stored")
    #expect(response.headerFields["Content-Length"] == "6")
    #expect(response.headerFields["X-Version"] == "2")
  }

  @Test func a200DuringRevalidationReplacesTheEntry() async throws {
    let cache = CacheHarness { _, index, _ in
      reply(
        200, headers: [("Cache-Control", "max-age=10"), ("ETag", "\"\(index)\"")],
        body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(20)
    #expect(try await cache.get() == (.miss, "v1"))
    #expect(try await cache.get() == (.hit, "v1"))
  }

  @Test func a5xxDuringRevalidationIsReturnedWithoutStaleIfError() async throws {
    let cache = CacheHarness { _, index, _ in
      index > 0
        ? reply(503, body: "down")
        : reply(200, headers: [("Cache-Control", "max-age=10"), ("ETag", "\"a\"")], body: "v0")
    }
    _ = try await cache.get()
    cache.clock.advance(20)
    let (response, body) = try await cache.send()
    #expect(response.status == 503)
    #expect(body == "down")
  }

  @Test func staleIfErrorServesTheStoredResponseOn5xxWithinItsWindow() async throws {
    let cache = CacheHarness { _, index, _ in
      index > 0
        ? reply(500, body: "down")
        : reply(200, headers: [("Cache-Control", "max-age=10, stale-if-error=60")], body: "v0")
    }
    _ = try await cache.get()
    cache.clock.advance(30)
    let (response, body) = try await cache.send()
    #expect(response.status == 200)
    #expect(body == "v0")
    #expect(response.cacheStatus?.outcome == .stale)
    #expect(response.cacheStatus?.forwardStatus == 500)
    cache.clock.advance(60)
    #expect(try await cache.send().0.status == 500)
  }

  @Test func staleIfErrorServesTheStoredResponseWhenTheNetworkFails() async throws {
    let cache = CacheHarness { _, index, _ in
      if index > 0 { throw TestFailure(message: "offline") }
      return reply(200, headers: [("Cache-Control", "max-age=10, stale-if-error=60")], body: "v0")
    }
    _ = try await cache.get()
    cache.clock.advance(30)
    #expect(try await cache.get() == (.stale, "v0"))
    cache.clock.advance(60)
    await #expect(throws: TestFailure(message: "offline")) { try await cache.get() }
  }

  @Test func mustRevalidateRefusesStaleIfError() async throws {
    let cache = CacheHarness { _, index, _ in
      index > 0
        ? reply(500)
        : reply(200, headers: [("Cache-Control", "max-age=10, must-revalidate, stale-if-error=60")])
    }
    _ = try await cache.get()
    cache.clock.advance(20)
    #expect(try await cache.send().0.status == 500)
  }

  @Test func requestStaleIfErrorAlsoAllowsIt() async throws {
    let cache = CacheHarness { _, index, _ in
      index > 0 ? reply(502) : reply(200, headers: [("Cache-Control", "max-age=10")], body: "v0")
    }
    _ = try await cache.get()
    cache.clock.advance(20)
    #expect(
      try await cache.get(headers: [("Cache-Control", "stale-if-error=30")]) == (.stale, "v0"))
  }

  @Test func a304ForAnotherTagSendsTheRequestAgainWithoutConditions() async throws {
    let cache = CacheHarness { request, index, _ in
      if request.headerFields.contains("If-None-Match") {
        return reply(304, headers: [("ETag", "\"other\"")])
      }
      return reply(
        200, headers: [("Cache-Control", "max-age=0"), ("ETag", "\"a\"")],
        body: "v\(index)")
    }
    _ = try await cache.get()
    #expect(try await cache.get() == (.miss, "v2"))
    let sent = cache.origin.requests.map { $0.headerFields.contains("If-None-Match") }
    #expect(sent == [false, true, false])
  }

  @Test func mustRevalidateRefusesStaleWhileRevalidate() async throws {
    let cache = CacheHarness { _, index, _ in
      reply(
        200,
        headers: [
          ("Cache-Control", "max-age=10, must-revalidate, stale-while-revalidate=60")
        ], body: "v\(index)")
    }
    _ = try await cache.get()
    cache.clock.advance(20)
    #expect(try await cache.get() == (.miss, "v1"))
  }

  @Test func qualifiedNoCacheServesTheResponseWithoutTheNamedFields() async throws {
    let cache = CacheHarness { request, index, _ in
      request.headerFields.contains("If-None-Match")
        ? reply(304)
        : reply(
          200,
          headers: [
            ("Cache-Control", "no-cache=\"Set-Cookie, X-Token\", max-age=600"), ("ETag", "\"a\""),
            ("X-Token", "t"),
          ], body: "v\(index)")
    }
    _ = try await cache.get()
    let (response, body) = try await cache.send()
    #expect(body == "v0")
    #expect(response.cacheStatus?.outcome == .hit)
    #expect(!response.headerFields.contains("X-Token"))
    // Unqualified, the directive still revalidates every time.
    let unqualified = CacheHarness(headers: [
      ("Cache-Control", "no-cache, max-age=600"), ("ETag", "\"a\""),
    ])
    _ = try await unqualified.get()
    #expect(try await unqualified.get() == (.miss, "v1"))
  }
}
