import EndpointTestSupport
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The twenty bytes every range origin holds.
private let representation = "0123456789abcdefghij"

/// An origin holding one representation under the entity tag `etag(index)`, answering as a
/// server does: one byte range with a `206` and its `Content-Range`; several ranges, or an
/// `If-Range` that is not the tag, with the whole `200`.
private func rangeOrigin(
  etag: @escaping @Sendable (Int) -> String = { _ in "\"r\"" },
  headers: [(String, String)] = [("Cache-Control", "max-age=60")]
) -> @Sendable (HTTPRequest, Int, TestNow) async throws -> (HTTPResponse, HTTPBody) {
  { request, index, _ in
    let bytes = Array(representation.utf8)
    let tag = etag(index)
    let fields = headers + [("ETag", tag)]
    let ifRange = request.headerFields["If-Range"]
    guard ifRange == nil || ifRange == tag,
      let range = CacheMiddleware.byteRange(
        request.headerFields.values(for: "Range"), length: bytes.count)
    else { return reply(200, headers: fields, body: representation) }
    let contentRange = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(bytes.count)"
    return reply(
      206, headers: fields + [("Content-Range", contentRange)],
      body: String(decoding: bytes[range], as: UTF8.self))
  }
}

/// RFC 9111 §3.3 and §3.4 and RFC 9110 §14: storing `206` responses, answering `Range`
/// requests from them, and combining parts, with the memory store and the disk store.
@Suite struct CachePartialContentTests {
  private func range(_ value: String) -> [(String, String)] { [("Range", value)] }

  @Test(arguments: StoreKind.allCases)
  func aStoredPartAnswersTheRangesItHoldsAndNothingElse(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store, origin: rangeOrigin())
      let (first, firstBody) = try await cache.send(headers: range("bytes=5-14"))
      #expect(first.status == 206)
      #expect(firstBody == "56789abcde")
      #expect(first.cacheStatus?.isStored == true)
      let (hit, body) = try await cache.send(headers: range("bytes=6-9"))
      #expect(hit.status == 206)
      #expect(hit.cacheStatus?.outcome == .hit)
      #expect(hit.headerFields["Content-Range"] == "bytes 6-9/20")
      #expect(hit.headerFields["Content-Length"] == "4")
      #expect(body == "6789")
      #expect(cache.origin.requests.count == 1)
      // A range the part does not hold goes to the server.
      let (outside, outsideBody) = try await cache.send(headers: range("bytes=0-5"))
      #expect(outside.cacheStatus?.forwardReason == "partial")
      #expect(outsideBody == "012345")
      #expect(cache.origin.requests.count == 2)
      // A part never answers a request for the whole response, nor a HEAD.
      let (whole, wholeBody) = try await cache.send()
      #expect(whole.status == 200)
      #expect(whole.cacheStatus?.forwardReason == "partial")
      #expect(wholeBody == representation)
      #expect(try await cache.get(headers: range("bytes=0-0")) == (.hit, "0"))
      #expect(cache.origin.requests.count == 3)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func partsOfOneRepresentationCombineIntoTheWholeResponse(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store, origin: rangeOrigin())
      _ = try await cache.send(headers: range("bytes=0-7"))
      // Parts that touch join: 0–7 and 8–11 make 0–11.
      _ = try await cache.send(headers: range("bytes=8-11"))
      let (joined, joinedBody) = try await cache.send(headers: range("bytes=2-10"))
      #expect(joined.cacheStatus?.outcome == .hit)
      #expect(joined.headerFields["Content-Range"] == "bytes 2-10/20")
      #expect(joinedBody == "23456789a")
      #expect(cache.origin.requests.count == 2)
      // An overlapping part joins too; together they are the whole, stored as a 200.
      _ = try await cache.send(headers: range("bytes=10-"))
      let (whole, body) = try await cache.send()
      #expect(whole.status == 200)
      #expect(whole.cacheStatus?.outcome == .hit)
      #expect(whole.headerFields["Content-Length"] == "20")
      #expect(whole.headerFields["Content-Range"] == nil)
      #expect(body == representation)
      #expect(try await cache.get(headers: range("bytes=-4")) == (.hit, "ghij"))
      #expect(cache.origin.requests.count == 3)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func partsAreNotJoinedPastTheLargestBodyStored(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store, maximumBodySize: 12, origin: rangeOrigin())
      _ = try await cache.send(headers: range("bytes=0-7"))
      _ = try await cache.send(headers: range("bytes=4-11"))
      #expect(try await cache.get(headers: range("bytes=0-11")) == (.hit, "0123456789ab"))
      _ = try await cache.send(headers: range("bytes=12-19"))
      // Joined, the parts would pass 12 bytes: the newer one took the older one's place.
      #expect(try await cache.get(headers: range("bytes=12-13")) == (.hit, "cd"))
      #expect(try await cache.get(headers: range("bytes=0-1")) == (.miss, "01"))
      #expect(cache.origin.requests.count == 4)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func partsWithoutTheSameStrongEntityTagAreNotCombined(store kind: StoreKind) async throws {
    let tags: [@Sendable (Int) -> String] = [{ "\"r\($0)\"" }, { _ in "W/\"r\"" }]
    for etag in tags {
      try await kind.run { store in
        let cache = CacheHarness(store: store, origin: rangeOrigin(etag: etag))
        _ = try await cache.send(headers: range("bytes=0-9"))
        _ = try await cache.send(headers: range("bytes=10-19"))
        #expect(try await cache.get(headers: range("bytes=12-13")) == (.hit, "cd"))
        // Not joined: the newer part took the older one's place.
        #expect(try await cache.get(headers: range("bytes=0-1")) == (.miss, "01"))
        #expect(try await cache.get(headers: range("bytes=0-1")) == (.hit, "01"))
        #expect(try await cache.get() == (.miss, representation))
        #expect(cache.origin.requests.count == 4)
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aPartOfTheStoredWholeResponseRefreshesIt(store kind: StoreKind) async throws {
    try await kind.run { store in
      let cache = CacheHarness(store: store, origin: rangeOrigin())
      _ = try await cache.send()
      #expect(try await cache.get(headers: range("bytes=-3")) == (.hit, "hij"))
      cache.clock.advance(90)
      let (stale, body) = try await cache.send(headers: range("bytes=0-3"))
      #expect(stale.cacheStatus?.forwardReason == "stale")
      #expect(body == "0123")
      // The part had the whole response's strong entity tag and length: its fields made the
      // stored whole fresh again.
      #expect(try await cache.get() == (.hit, representation))
      #expect(cache.origin.requests.count == 2)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func ifRangeIsAnsweredFromTheStoreOnlyWithItsStrongEntityTag(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store, origin: rangeOrigin())
      _ = try await cache.send()
      let (hit, body) = try await cache.send(
        headers: range("bytes=0-3") + [("If-Range", "\"r\"")])
      #expect(hit.status == 206)
      #expect(hit.cacheStatus?.outcome == .hit)
      #expect(body == "0123")
      #expect(cache.origin.requests.count == 1)
      for other in ["\"other\"", "W/\"r\"", "Thu, 01 Jan 2026 00:00:00 GMT"] {
        let (response, _) = try await cache.send(
          headers: range("bytes=0-3") + [("If-Range", other)])
        #expect(response.cacheStatus?.outcome == .miss, "\(other)")
      }
      #expect(cache.origin.requests.count == 4)
      // If-Range without Range means nothing: it goes to the server untouched.
      #expect(try await cache.get(headers: [("If-Range", "\"r\"")]) == (.miss, representation))
      #expect(cache.origin.requests.count == 5)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func partsThatCannotBeReadAreNotStored(store kind: StoreKind) async throws {
    let parts: [(headers: [(String, String)], body: String)] = [
      ([("Content-Range", "bytes 0-9/*")], "0123456789"),
      ([("Content-Range", "bytes 0-9/20"), ("Content-Encoding", "gzip")], "0123456789"),
      ([("Content-Range", "bytes 0-9/20")], "01234"),
      ([("Content-Range", "bytes 0-29/20")], "0123456789"),
      ([("Content-Range", "items 0-9/20")], "0123456789"),
      ([("Content-Type", "multipart/byteranges; boundary=x")], "--x--"),
    ]
    for (index, part) in parts.enumerated() {
      try await kind.run { store in
        let cache = CacheHarness(store: store) { _, _, _ in
          reply(206, headers: part.headers + [("Cache-Control", "max-age=60")], body: part.body)
        }
        let url = "https://api.example.com/part/\(index)"
        _ = try await cache.send(.get, url, headers: range("bytes=0-9"))
        let (response, _) = try await cache.send(.get, url, headers: range("bytes=0-4"))
        #expect(response.cacheStatus?.outcome == .miss, "\(part.headers)")
        #expect(cache.origin.requests.count == 2)
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func onlyStatusesAboutTheWholeResponseAreStoredFromARangeRequest(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store) { _, index, _ in
        index == 0
          ? reply(416, headers: [("Cache-Control", "max-age=60")])
          : reply(200, headers: [("Cache-Control", "max-age=60")], body: "v\(index)")
      }
      _ = try await cache.send(headers: range("bytes=50-"))
      #expect(try await cache.get() == (.miss, "v1"))
      // Several ranges go to the server untouched, and its answer is not stored.
      let (several, _) = try await cache.send(headers: range("bytes=0-0,1-1"))
      #expect(several.cacheStatus?.forwardReason == "request")
      #expect(several.cacheStatus?.isStored == false)
      #expect(try await cache.get() == (.hit, "v1"))
    }
  }

  @Test(arguments: StoreKind.allCases)
  func onlyIfCachedWithARangeTheStoreDoesNotHoldIsAGatewayTimeout(store kind: StoreKind)
    async throws
  {
    try await kind.run { store in
      let cache = CacheHarness(store: store, origin: rangeOrigin())
      _ = try await cache.send(headers: range("bytes=0-4"))
      let onlyIfCached = [("Cache-Control", "only-if-cached")]
      #expect(try await cache.get(headers: range("bytes=1-2") + onlyIfCached) == (.hit, "12"))
      let (response, _) = try await cache.send(headers: range("bytes=3-9") + onlyIfCached)
      #expect(response.status == 504)
      #expect(cache.origin.requests.count == 1)
    }
  }
}
