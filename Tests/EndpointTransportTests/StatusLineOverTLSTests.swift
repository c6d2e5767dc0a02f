import EndpointTestSupport
import Foundation
import Synchronization
import Testing

@testable import EndpointCurl

/// A status line that is not HTTP/1.x on an HTTP/1.1 connection over TLS (ALPN chose
/// http/1.1), written exactly as libcurl writes the head of an HTTP/2 stream (`HTTP/2 200 `, a
/// status and one space): libcurl then reports the connection as HTTP/2 itself, so the curl
/// client asks libcurl whether the head came with HTTP/2's `:status` pseudo-header. The
/// listener is `tls_server.py`'s `/status-line`. URLSession on Linux cannot be told to trust
/// the test authority, so it cannot reach the listener; it shows no version over TLS either
/// (in cleartext, `ResponseFramingWireTests` pins that it reads such a head as a 200).
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct StatusLineOverTLSTests {
  static func client(
    metricsObserver: (@Sendable (TransferMetrics) -> Void)? = nil
  ) throws -> CurlHTTPClient {
    try CurlHTTPClient(
      configuration: .init(
        idleTimeout: .seconds(10), tls: .init(caBundlePath: TestServers.testCAPath),
        metricsObserver: metricsObserver))
  }

  @Test(arguments: ["HTTP/2", "HTTP/2.0", "HTTP/3"])
  func aStatusLineThatIsNotHTTP1IsAnErrorOverTLS(version: String) async throws {
    let client = try Self.client()
    let url = try TestServers.httpsTLS12Only.adding("/status-line?version=\(version)")
    let error = try await #require(throws: TransportFailure.self) {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      let data = try await body.collect(upTo: 1 << 16)
      Issue.record("\(version): \(response.status) with \(data.count) bytes")
    }
    #expect(error.kind == .malformedResponse, "\(error)")
  }

  /// The same head with an HTTP/1.1 status line, and a real HTTP/2 answer (ALPN chose h2,
  /// where libcurl writes the status line `HTTP/2 200 ` itself), are read.
  @Test func anHTTP1StatusLineAndRealHTTP2AreReadOverTLS() async throws {
    let versions = Mutex<[String?]>([])
    let client = try Self.client { metrics in versions.withLock { $0.append(metrics.httpVersion) } }
    let url = try TestServers.httpsTLS12Only.adding("/status-line?version=HTTP/1.1")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1 << 16) == Data("framed-ok!".utf8))
    let http2 = try TestServers.https.adding("/get")
    let (answer, answerBody) = try await client.send(HTTPRequest(method: .get, url: http2))
    #expect(answer.status == 200)
    #expect(!(try await answerBody.collect(upTo: 1 << 20)).isEmpty)
    #expect(versions.withLock { $0 } == ["1.1", "2"])
  }
}
