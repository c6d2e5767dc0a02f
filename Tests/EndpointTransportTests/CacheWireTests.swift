import EndpointCore
import EndpointCurl
import EndpointPrimitives
import EndpointTestSupport
import Foundation
import Synchronization
import Testing

/// A clock the wire tests move forward, over the real time.
private final class Offset: Sendable {
  private let seconds = Mutex<Double>(0)
  var now: @Sendable () -> Date {
    { Date().addingTimeInterval(self.seconds.withVisibleLock { $0 }) }
  }
  func advance(_ delta: Double) { seconds.withVisibleLock { $0 += delta } }
}

/// ``CacheMiddleware`` over each real transport, against the fault server's `/cache`, which
/// counts the requests that reach it.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CacheWireTests {
  private struct Setup {
    let transport: AnyClient
    let cache: CacheMiddleware
    let client: MiddlewareClient<AnyClient>
    let key = UUID().uuidString
    let offset = Offset()

    init(_ under: TransportUnderTest, store: any CacheStore = CacheMiddleware.memoryStore()) throws
    {
      transport = AnyClient(try under.makeClient())
      let offset = offset
      cache = CacheMiddleware(store: store, now: offset.now)
      client = transport.with(cache)
    }

    func url(_ query: String = "") throws -> URL {
      try TestServers.fault.adding("/cache?key=\(key)\(query.isEmpty ? "" : "&")\(query)")
    }

    /// Sends a request through the cache and reads the whole body.
    func send(
      _ method: HTTPMethod = .get,
      _ query: String,
      headers: [(String, String)] = []
    ) async throws -> (HTTPResponse, Data) {
      var request = HTTPRequest(method: method, url: try url(query), timeout: .seconds(30))
      for (name, value) in headers { try request.headerFields.append(value, for: name) }
      let (response, body) = try await client.send(request)
      return (response, try await body.collect())
    }

    /// What the server counted for this test's key.
    func counted() async throws -> (count: Int, conditional: Int, methods: [String]) {
      let url = try TestServers.fault.adding("/cache-hits?key=\(key)")
      let (_, json) = try await sendForJSON(transport, HTTPRequest(method: .get, url: url))
      return (
        json["count"] as? Int ?? -1, json["conditional"] as? Int ?? -1,
        json["methods"] as? [String] ?? []
      )
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aFreshResponseIsServedWithoutTheServer(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let (first, firstBody) = try await setup.send(.get, "cc=max-age%3D60")
    let (second, secondBody) = try await setup.send(.get, "cc=max-age%3D60")
    #expect(first.cacheStatus?.outcome == .miss)
    #expect(second.cacheStatus?.outcome == .hit)
    #expect(secondBody == firstBody)
    #expect(try await setup.counted().count == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func expiresKeepsAResponseFresh(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    _ = try await setup.send(.get, "expires=60")
    #expect(try await setup.send(.get, "expires=60").0.cacheStatus?.outcome == .hit)
    setup.offset.advance(120)
    #expect(try await setup.send(.get, "expires=60").0.cacheStatus?.outcome == .miss)
    #expect(try await setup.counted().count == 2)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anETagIsRevalidatedAndThe304ServesTheStoredBody(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let query = "cc=max-age%3D0&etag=%22v1%22"
    let (_, stored) = try await setup.send(.get, query)
    let (response, body) = try await setup.send(.get, query)
    #expect(response.status == 200)
    #expect(response.cacheStatus?.outcome == .revalidated)
    #expect(body == stored)
    let counted = try await setup.counted()
    #expect(counted.count == 2)
    #expect(counted.conditional == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func lastModifiedIsRevalidatedForNoCache(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let query = "cc=no-cache&last_modified=Sun,%2006%20Nov%201994%2008:49:37%20GMT"
    _ = try await setup.send(.get, query)
    #expect(try await setup.send(.get, query).0.cacheStatus?.outcome == .revalidated)
    #expect(try await setup.counted().conditional == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func heuristicFreshnessFromLastModified(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let query = "last_modified=Sun,%2006%20Nov%201994%2008:49:37%20GMT"
    _ = try await setup.send(.get, query)
    #expect(try await setup.send(.get, query).0.cacheStatus?.outcome == .hit)
    #expect(try await setup.counted().count == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func noStoreIsNeverStored(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    _ = try await setup.send(.get, "cc=no-store")
    _ = try await setup.send(.get, "cc=no-store")
    #expect(try await setup.counted().count == 2)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func varySelectsTheVariant(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let query = "cc=max-age%3D60&vary=Accept-Language"
    for language in ["en", "fr", "en", "fr"] {
      _ = try await setup.send(.get, query, headers: [("Accept-Language", language)])
    }
    #expect(try await setup.counted().count == 2)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aPostInvalidatesTheStoredResponse(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let query = "cc=max-age%3D60"
    _ = try await setup.send(.get, query)
    _ = try await setup.send(.post, query)
    #expect(try await setup.send(.get, query).0.cacheStatus?.outcome == .miss)
    #expect(try await setup.counted().methods == ["GET", "POST", "GET"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func headIsAnsweredFromAStoredGet(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    _ = try await setup.send(.get, "cc=max-age%3D60")
    let (response, body) = try await setup.send(.head, "cc=max-age%3D60")
    #expect(response.cacheStatus?.outcome == .hit)
    #expect(body.isEmpty)
    #expect(try await setup.counted().methods == ["GET"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aChunkedBodyIsStoredAsItIsRead(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let (_, first) = try await setup.send(.get, "cc=max-age%3D60&chunked=1")
    let (response, second) = try await setup.send(.get, "cc=max-age%3D60&chunked=1")
    #expect(response.cacheStatus?.outcome == .hit)
    #expect(second == first)
    #expect(try await setup.counted().count == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func staleIfErrorServesTheStoredResponseWhenTheServerFails(under: TransportUnderTest)
    async throws
  {
    let setup = try Setup(under)
    let query = "cc=max-age%3D0,%20stale-if-error%3D60&fail_after=1&status=503"
    let (_, stored) = try await setup.send(.get, query)
    let (response, body) = try await setup.send(.get, query)
    #expect(response.status == 200)
    #expect(response.cacheStatus?.outcome == .stale)
    #expect(response.cacheStatus?.forwardStatus == 503)
    #expect(body == stored)
    #expect(try await setup.counted().count == 2)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func staleWhileRevalidateRefreshesInTheBackground(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    // No Date field: the test's clock runs ahead of the server's.
    let query = "cc=max-age%3D10,%20stale-while-revalidate%3D60&date=0"
    let (_, stored) = try await setup.send(.get, query)
    setup.offset.advance(20)
    let (response, body) = try await setup.send(.get, query)
    #expect(response.cacheStatus?.outcome == .stale)
    #expect(body == stored)
    await setup.cache.waitForBackgroundRevalidations()
    let (refreshed, newBody) = try await setup.send(.get, query)
    #expect(refreshed.cacheStatus?.outcome == .hit)
    #expect(newBody != stored)
    #expect(try await setup.counted().count == 2)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func theDiskStoreAnswersAfterARestart(under: TransportUnderTest) async throws {
    try await withTemporaryDirectory { directory in
      let first = try Setup(under, store: try CacheMiddleware.diskStore(directory: directory))
      let (_, stored) = try await first.send(.get, "cc=max-age%3D60")
      let reopened = try CacheMiddleware.diskStore(directory: directory)
      let client = first.transport.with(CacheMiddleware(store: reopened))
      let (response, body) = try await client.send(
        HTTPRequest(method: .get, url: try first.url("cc=max-age%3D60")))
      #expect(response.cacheStatus?.outcome == .hit)
      #expect(try await body.collect() == stored)
      #expect(try await first.counted().count == 1)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func onlyIfCachedAnswers504WithoutTheServerAndServesWhatIsStored(under: TransportUnderTest)
    async throws
  {
    let setup = try Setup(under)
    let offline = [("Cache-Control", "only-if-cached")]
    #expect(try await setup.send(.get, "cc=max-age%3D60", headers: offline).0.status == 504)
    #expect(try await setup.counted().count == 0)
    _ = try await setup.send(.get, "cc=max-age%3D60")
    let (response, _) = try await setup.send(.get, "cc=max-age%3D60", headers: offline)
    #expect(response.status == 200)
    #expect(response.cacheStatus?.outcome == .hit)
    #expect(try await setup.counted().count == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func requestDirectivesChooseBetweenStoreAndServer(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let query = "cc=max-age%3D60&date=0"
    _ = try await setup.send(.get, query)
    setup.offset.advance(90)
    let stale = try await setup.send(.get, query, headers: [("Cache-Control", "max-stale=60")])
    #expect(stale.0.cacheStatus?.outcome == .stale)
    let fresh = try await setup.send(.get, query, headers: [("Cache-Control", "max-stale=10")])
    #expect(fresh.0.cacheStatus?.outcome == .miss)
    let forced = try await setup.send(.get, query, headers: [("Cache-Control", "no-cache")])
    #expect(forced.0.cacheStatus?.outcome == .miss)
    #expect(try await setup.counted().count == 3)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func mustRevalidateGoesToTheServerOnceStale(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let query = "cc=max-age%3D10,%20must-revalidate&etag=%22m%22&date=0"
    _ = try await setup.send(.get, query)
    setup.offset.advance(20)
    let (response, _) = try await setup.send(
      .get, query, headers: [("Cache-Control", "max-stale")])
    #expect(response.cacheStatus?.outcome == .revalidated)
    #expect(try await setup.counted().conditional == 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDeleteInvalidatesTheSameOriginLocation(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let target = try setup.url("cc=max-age%3D60")
    _ = try await setup.send(.get, "cc=max-age%3D60")
    let location =
      target.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    let deleting = HTTPRequest(
      method: .delete,
      url: try TestServers.fault.adding("/cache?key=\(setup.key)-other&location=\(location)"))
    _ = try await setup.client.send(deleting).1.collect()
    #expect(try await setup.send(.get, "cc=max-age%3D60").0.cacheStatus?.outcome == .miss)
    #expect(try await setup.counted().methods == ["GET", "GET"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func bodiesOverTheLimitReachTheCallerButAreNotStored(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let client = setup.transport.with(CacheMiddleware(maximumBodySize: 10))
    for query in ["cc=max-age%3D60", "cc=max-age%3D60&chunked=1"] {
      for _ in 0..<2 {
        let (response, body) = try await client.send(
          HTTPRequest(method: .get, url: try setup.url(query)))
        #expect(response.cacheStatus?.outcome == .miss)
        #expect(String(decoding: try await body.collect(), as: UTF8.self).contains(setup.key))
      }
    }
    #expect(try await setup.counted().count == 4)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func oneRangeIsAnsweredFromTheStoreAndSeveralPassThrough(under: TransportUnderTest)
    async throws
  {
    let setup = try Setup(under)
    let (_, stored) = try await setup.send(.get, "cc=max-age%3D60")
    let (partial, body) = try await setup.send(
      .get, "cc=max-age%3D60", headers: [("Range", "bytes=0-3")])
    #expect(partial.status == 206)
    #expect(partial.cacheStatus?.outcome == .hit)
    #expect(partial.headerFields["Content-Range"] == "bytes 0-3/\(stored.count)")
    #expect(body == stored.prefix(4))
    let (response, _) = try await setup.send(
      .get, "cc=max-age%3D60", headers: [("Range", "bytes=0-1, 3-4")])
    #expect(response.cacheStatus?.forwardReason == "request")
    #expect(try await setup.send(.get, "cc=max-age%3D60").0.cacheStatus?.outcome == .hit)
    #expect(try await setup.counted().count == 2)
  }

  private func cached(_ client: some HTTPTransferClient, _ cache: CacheMiddleware)
    -> some HTTPTransferClient
  {
    client.with(cache)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func downloadsPassThroughAndAreNotStored(under: TransportUnderTest) async throws {
    let setup = try Setup(under)
    let client = cached(try under.makeClient(), setup.cache)
    let url = try setup.url("cc=max-age%3D60")
    for _ in 0..<2 {
      let file = FileManager.default.temporaryDirectory.appending(path: "cache-\(UUID()).json")
      defer { try? FileManager.default.removeItem(at: file) }
      let response = try await client.download(HTTPRequest(method: .get, url: url), to: file)
      #expect(response.status == 200)
      #expect(try String(contentsOf: file, encoding: .utf8).contains(setup.key))
    }
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.cacheStatus?.outcome == .miss)
    #expect(String(decoding: try await body.collect(), as: UTF8.self).contains(setup.key))
    #expect(try await setup.counted().count == 3)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func hopByHopFieldsAndTheTransferCodingAreNeverServedFromTheStore(under: TransportUnderTest)
    async throws
  {
    let setup = try Setup(under)
    let query = "cc=max-age%3D60&chunked=1&hop=1"
    let (_, stored) = try await setup.send(.get, query)
    let (response, body) = try await setup.send(.get, query)
    #expect(response.cacheStatus?.outcome == .hit)
    #expect(body == stored)
    for name in ["Connection", "X-Hop", "Keep-Alive", "Transfer-Encoding"] {
      #expect(!response.headerFields.contains(name), "\(name)")
    }
    #expect(response.headerFields["Content-Type"] == "application/json")
    #expect(try await setup.counted().count == 1)
  }

  /// A client of `under` that keeps the cookies servers set.
  private func cookieKeeping(_ under: TransportUnderTest) throws -> AnyClient {
    switch under {
    case .urlSession:
      return AnyClient(try under.makeClient())
    case .curl:
      var configuration = CurlHTTPClient.Configuration()
      configuration.storesCookies = true
      return AnyClient(try CurlHTTPClient(configuration: configuration))
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aHitServesTheStoredSetCookieWithoutFeedingTheCookieStoreAgain(under: TransportUnderTest)
    async throws
  {
    let transport = try cookieKeeping(under)
    let client = transport.with(CacheMiddleware())
    let key = UUID().uuidString
    func get(_ query: String) async throws -> HTTPResponse {
      let url = try TestServers.fault.adding("/cache?key=\(key)&\(query)")
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect()
      return response
    }
    let stored = "cc=max-age%3D60&cookie=flavour%3Dfirst"
    _ = try await get(stored)
    // A response that is not stored sets the cookie anew.
    _ = try await get("cc=no-store&cookie=flavour%3Dsecond")
    let hit = try await get(stored)
    #expect(hit.cacheStatus?.outcome == .hit)
    #expect(hit.headerFields["Set-Cookie"] == "flavour=first; Path=/")
    // The cookie store still holds the newer cookie: the hit never reached it.
    let (_, echo) = try await sendForJSON(
      transport, HTTPRequest(method: .get, url: try TestServers.fault.adding("/echo")))
    let headers = echo["headers"] as? [[String]] ?? []
    let cookies = headers.filter { $0.first?.lowercased() == "cookie" }.map { $0.last ?? "" }
    #expect(cookies == ["flavour=second"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func staleIfErrorServesTheStoredResponseWhenTheConnectionDrops(under: TransportUnderTest)
    async throws
  {
    let setup = try Setup(under)
    let query = "cc=max-age%3D0,%20stale-if-error%3D60&fail_after=1&status=drop"
    let (_, stored) = try await setup.send(.get, query)
    let (response, body) = try await setup.send(.get, query)
    #expect(response.status == 200)
    #expect(response.cacheStatus?.outcome == .stale)
    #expect(body == stored)
    // A transport may try a dropped request once more on a new connection.
    #expect(try await setup.counted().count >= 2)
  }

  /// Curl only: URLSession never reads trailers, and on Linux a chunked response with one
  /// ends its process (see LINUX-URLSESSION).
  @Test func trailerFieldsReachTheCallerThroughTheCache() async throws {
    let client = AnyClient(try TransportUnderTest.curl.makeClient(inlineBodyLimit: 0)).with(
      CacheMiddleware(), CoalescingMiddleware())
    let url = try TestServers.fault.adding("/chunked-trailer")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(String(decoding: try await body.collect(), as: UTF8.self) == "hello")
    #expect(body.trailerFields?["X-Checksum"] == "abc")
  }

}
