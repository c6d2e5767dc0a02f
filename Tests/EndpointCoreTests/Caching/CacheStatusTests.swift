import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct CacheStatusTests {
  @Test func eachOutcomeReadsBackFromItsField() throws {
    let statuses: [(CacheStatus, CacheOutcome)] = [
      (CacheStatus(isHit: true, timeToLive: 30), .hit),
      (CacheStatus(isStale: true, timeToLive: -5), .stale),
      (CacheStatus(timeToLive: 10, forwardReason: "stale", forwardStatus: 304), .revalidated),
      (CacheStatus(forwardReason: "uri-miss", forwardStatus: 200, isStored: true), .miss),
      (
        CacheStatus(isStale: true, timeToLive: -20, forwardReason: "stale", forwardStatus: 503),
        .stale
      ),
    ]
    for (status, outcome) in statuses {
      let response = try response(200, [("Cache-Status", status.description)])
      #expect(response.cacheStatus == status)
      #expect(response.cacheStatus?.outcome == outcome)
    }
    #expect(CacheStatus(isStale: true).isHit)
    #expect(CacheStatus(forwardStatus: 304).isRevalidated)
    #expect(!CacheStatus(isHit: true, forwardStatus: 304).isRevalidated)
  }

  @Test func theLastMemberNamedEndpointCountsAndOthersAreIgnored() throws {
    let response = try response(
      200,
      [
        ("Cache-Status", "CDN; hit; ttl=100, Endpoint; fwd=uri-miss"),
        ("Cache-Status", "Other; hit"),
      ])
    #expect(response.cacheStatus?.outcome == .miss)
    #expect(try self.response(200, [("Cache-Status", "CDN; hit")]).cacheStatus == nil)
  }

  @Test func theMiddlewareAddsItsMemberAfterUpstreamCaches() async throws {
    let cache = CacheHarness(headers: [
      ("Cache-Control", "max-age=60"), ("Cache-Status", "CDN; hit"),
    ])
    _ = try await cache.get()
    let (response, _) = try await cache.send()
    #expect(
      response.headerFields.values(for: "Cache-Status") == ["CDN; hit", "Endpoint; hit; ttl=60"])
  }

  @Test func logsShowHowEachResponseWasServed() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let origin = ScriptedClient { _, _ in reply(200, headers: [("Cache-Control", "max-age=60")]) }
    let client = origin.with(
      LoggingMiddleware(
        includesHeaders: true, sink: { entry in entries.update { $0.append(entry) } }),
      CacheMiddleware(now: { Date(timeIntervalSince1970: 1_700_000_000) }))
    for _ in 0..<2 {
      _ = try await client.send(HTTPRequest(method: .get, url: testURL())).1.collect()
    }
    let logged = entries.value.compactMap { $0.responseHeaders?["Cache-Status"] }
    #expect(logged == ["Endpoint; fwd=uri-miss; fwd-status=200; stored", "Endpoint; hit; ttl=60"])
  }

  private func response(_ status: Int, _ fields: [(String, String)]) throws -> HTTPResponse {
    HTTPResponse(status: status, headerFields: try HTTPFields(fields))
  }
}
