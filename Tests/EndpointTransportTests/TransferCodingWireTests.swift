import EndpointCore
import Foundation
import Testing

/// A transfer coding before `chunked` (RFC 9112 §6.1), from the fault server's
/// `/transfer-coded`: both clients decode gzip, and fail a coding they do not know with the same
/// kind and a sentence that names the transfer coding, never with a body still coded.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TransferCodingWireTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aGzipTransferCodingIsDecoded(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/transfer-coded?coding=gzip")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1 << 16) == Data("transfer-coded body!".utf8))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func theCacheStoresTheDecodedBodyWithoutTransferEncoding(transport: TransportUnderTest)
    async throws
  {
    let store = CacheMiddleware.memoryStore()
    let client = AnyClient(try transport.makeClient(idleTimeout: .seconds(10)))
      .with(CacheMiddleware(store: store))
    let url = try TestServers.fault.adding("/transfer-coded?coding=gzip")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.cacheStatus?.isStored == true)
    #expect(try await body.collect() == Data("transfer-coded body!".utf8))
    let stored = try #require(try await store.entries(for: url.absoluteString).first)
    #expect(!stored.headerFields.contains("Transfer-Encoding"))
    #expect(stored.body == Data("transfer-coded body!".utf8))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aTransferCodingTheClientDoesNotKnowIsAnErrorThatNamesIt(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/transfer-coded?coding=endpoint-test")
    let failure = try await #require(throws: TransportFailure.self) {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      let data = try await body.collect(upTo: 1 << 16)
      Issue.record("\(transport): \(response.status) \(data.count) bytes")
    }
    #expect(failure.kind == .malformedResponse)
    #expect(!failure.isTransient)
    #expect(
      failure.description.contains(
        "the response's Transfer-Encoding \"endpoint-test, chunked\" has a transfer coding the "
          + "client could not decode"), "\(transport): \(failure)")
  }
}
