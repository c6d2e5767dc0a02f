import EndpointCore
import EndpointTestSupport
import Foundation
import Testing

/// ``CacheMiddleware`` with partial content over each real transport, against the fault
/// server's `/cache-range`, which answers `Range` requests and counts the requests that reach
/// it.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CacheRangeWireTests {
  /// The 100 bytes `/cache-range` holds: byte i is i % 251.
  private let whole = Data((0..<100).map { UInt8($0) })

  private struct Setup {
    let transport: AnyClient
    let client: MiddlewareClient<AnyClient>
    let key = UUID().uuidString

    init(_ under: TransportUnderTest, store: any CacheStore) throws {
      transport = AnyClient(try under.makeClient())
      client = transport.with(CacheMiddleware(store: store))
    }

    /// Sends a `GET` through the cache with `headers` and reads the whole body.
    func send(_ headers: [(String, String)] = []) async throws -> (HTTPResponse, Data) {
      let url = try TestServers.fault.adding("/cache-range?key=\(key)&cc=max-age%3D60")
      var request = HTTPRequest(method: .get, url: url, timeout: .seconds(30))
      for (name, value) in headers { try request.headerFields.append(value, for: name) }
      let (response, body) = try await client.send(request)
      return (response, try await body.collect())
    }

    /// How many requests, and how many with `If-Range`, the server counted for this key.
    func counted() async throws -> (count: Int, conditional: Int) {
      let url = try TestServers.fault.adding("/cache-hits?key=\(key)")
      let (_, json) = try await sendForJSON(transport, HTTPRequest(method: .get, url: url))
      return (json["count"] as? Int ?? -1, json["conditional"] as? Int ?? -1)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func partsFromTheServerAreStoredJoinedAndServed(under: TransportUnderTest) async throws {
    let setup = try Setup(under, store: CacheMiddleware.memoryStore())
    let (first, firstBody) = try await setup.send([("Range", "bytes=0-49")])
    #expect(first.status == 206)
    #expect(first.cacheStatus?.isStored == true)
    #expect(firstBody == whole[0..<50])
    let (hit, hitBody) = try await setup.send([("Range", "bytes=10-19")])
    #expect(hit.status == 206)
    #expect(hit.cacheStatus?.outcome == .hit)
    #expect(hit.headerFields["Content-Range"] == "bytes 10-19/100")
    #expect(hit.headerFields["Content-Length"] == "10")
    #expect(hitBody == whole[10..<20])
    #expect(try await setup.counted().count == 1)
    // A range the part does not hold goes to the server; the two parts make the whole.
    let (second, secondBody) = try await setup.send([("Range", "bytes=40-")])
    #expect(second.cacheStatus?.forwardReason == "partial")
    #expect(secondBody == whole[40...])
    let (complete, completeBody) = try await setup.send()
    #expect(complete.status == 200)
    #expect(complete.cacheStatus?.outcome == .hit)
    #expect(complete.headerFields["Content-Length"] == "100")
    #expect(completeBody == whole)
    let (suffix, suffixBody) = try await setup.send([("Range", "bytes=-5")])
    #expect(suffix.cacheStatus?.outcome == .hit)
    #expect(suffixBody == whole[95...])
    #expect(try await setup.counted().count == 2)
    // Several ranges go to the server untouched.
    let (several, _) = try await setup.send([("Range", "bytes=0-1, 3-4")])
    #expect(several.cacheStatus?.forwardReason == "request")
    #expect(try await setup.counted().count == 3)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func ifRangeIsAnsweredFromTheDiskStoreOnlyWithTheStoredStrongEntityTag(
    under: TransportUnderTest
  ) async throws {
    try await withTemporaryDirectory { directory in
      let setup = try Setup(under, store: try CacheMiddleware.diskStore(directory: directory))
      _ = try await setup.send()
      let (hit, hitBody) = try await setup.send([
        ("Range", "bytes=20-29"), ("If-Range", "\"range-1\""),
      ])
      #expect(hit.status == 206)
      #expect(hit.cacheStatus?.outcome == .hit)
      #expect(hit.headerFields["Content-Range"] == "bytes 20-29/100")
      #expect(hitBody == whole[20..<30])
      // Another tag: the server sends the whole representation, as If-Range says.
      let (other, otherBody) = try await setup.send([
        ("Range", "bytes=20-29"), ("If-Range", "\"range-0\""),
      ])
      #expect(other.status == 200)
      #expect(other.cacheStatus?.outcome == .miss)
      #expect(otherBody == whole)
      let counted = try await setup.counted()
      #expect(counted.count == 2)
      #expect(counted.conditional == 1)
    }
  }
}
