import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Both transports verify certificates by default: a server whose authority the system trust
/// store does not know is refused, never talked to silently.
@Suite struct TLSVerificationTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aServerFromAnUnknownAuthorityIsRefused(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.https.adding("/get")
    let error = try await #require(throws: (any Error).self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    transport.expectConnectionFailure(error, url: url, transient: false)
    switch transport {
    case .urlSession:
      let failure = try #require(error as? ConnectionFailure, "\(error)")
      // Foundation on Linux reports every libcurl TLS failure as URLError.unknown; only its
      // message says what went wrong.
      #expect(failure.code == .unknown, "\(failure)")
      #expect(failure.underlying.localizedDescription.contains("SSL certificate problem"))
    case .curl:
      let failure = try #require(error as? CurlHTTPClient.ConnectionFailure, "\(error)")
      #expect(failure.kind == .tls)
      #expect(failure.description.contains("the secure connection failed"))
    }
  }

  @Test func urlSessionRefusesTheServerReachedByNameToo() async throws {
    let client = URLSessionHTTPClient()
    let url = try TestServers.httpsAlt.adding("/get")
    let error = try await #require(throws: ConnectionFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.url == url)
    #expect(error.code == .unknown, "\(error)")
    #expect(error.underlying.localizedDescription.contains("SSL certificate problem"))
    #expect(!error.isTransient)
  }
}
