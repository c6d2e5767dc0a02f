import EndpointKernel
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
      let failure = try #require(error as? TransportFailure, "\(error)")
      // Foundation on Linux reports every libcurl TLS failure as URLError.unknown; only its
      // message says what went wrong.
      #expect(failure.code == URLError.Code.unknown.rawValue, "\(failure)")
      #expect(failure.kind == .tls)
      #expect(
        (failure.underlyingError as? URLError)?.localizedDescription.contains(
          "SSL certificate problem") == true)
      // The description carries that message, so a log line says what went wrong.
      #expect(failure.description.contains("SSL certificate problem"), "\(failure)")
    case .curl:
      let failure = try #require(error as? TransportFailure, "\(error)")
      #expect(failure.kind == .tls)
      #expect(failure.description.contains("the secure connection failed"))
    }
  }

  @Test func urlSessionRefusesTheServerReachedByNameToo() async throws {
    let client = URLSessionHTTPClient()
    let url = try TestServers.httpsAlt.adding("/get")
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.url == url)
    #expect(error.code == URLError.Code.unknown.rawValue, "\(error)")
    #expect(error.kind == .tls)
    #expect(
      (error.underlyingError as? URLError)?.localizedDescription.contains("SSL certificate problem")
        == true)
    #expect(!error.isTransient)
  }

  @Test func transportErrorsHideCredentialsInTheirURLs() throws {
    let url = try #require(URL(string: "https://user:secret@127.0.0.1/get?access_token=abc123"))
    var info = URLError(.unknown).userInfo
    info[NSLocalizedDescriptionKey] = "SSL certificate problem: self-signed certificate"
    let failures: [any CustomStringConvertible] = [
      TransportFailure.urlSession(
        method: .get, url: url, error: URLError(.unknown, userInfo: info)),
      TransportFailure.bufferOverflow(method: .get, url: url, limit: 10),
      InvalidRequest(.unsupported, reason: "a test", method: .get, url: url),
    ]
    for failure in failures {
      #expect(!failure.description.contains("secret"), "\(failure)")
      #expect(!failure.description.contains("abc123"), "\(failure)")
      #expect(failure.description.contains("127.0.0.1"), "\(failure)")
    }
    #expect(failures[0].description.hasSuffix(": SSL certificate problem: self-signed certificate"))
    let refused = TransportFailure.urlSession(
      method: .get, url: url, error: URLError(.cannotConnectToHost, userInfo: info))
    #expect(!refused.description.contains("SSL"), "only a code that says little gets the message")
  }
}
