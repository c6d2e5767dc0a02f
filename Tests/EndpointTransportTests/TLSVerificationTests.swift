import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Both transports verify certificates by default: a server whose authority the system trust
/// store does not know is refused, never talked to silently.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TLSVerificationTests {
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
      // The description carries that message, so a log line says what went wrong.
      #expect(failure.description.contains("SSL certificate problem"), "\(failure)")
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

  @Test func transportErrorsHideCredentialsInTheirURLs() throws {
    let url = try #require(URL(string: "https://user:secret@127.0.0.1/get?access_token=abc123"))
    var info = URLError(.unknown).userInfo
    info[NSLocalizedDescriptionKey] = "SSL certificate problem: self-signed certificate"
    let failures: [any CustomStringConvertible] = [
      ConnectionFailure(method: .get, url: url, underlying: URLError(.unknown, userInfo: info)),
      ResponseBufferOverflow(method: .get, url: url, limit: 10),
      UnsupportedRequest(method: .get, url: url, reason: "a test"),
    ]
    for failure in failures {
      #expect(!failure.description.contains("secret"), "\(failure)")
      #expect(!failure.description.contains("abc123"), "\(failure)")
      #expect(failure.description.contains("127.0.0.1"), "\(failure)")
    }
    #expect(failures[0].description.hasSuffix(": SSL certificate problem: self-signed certificate"))
    let refused = ConnectionFailure(
      method: .get, url: url, underlying: URLError(.cannotConnectToHost, userInfo: info))
    #expect(!refused.description.contains("SSL"), "only a code that says little gets the message")
  }
}
