import EndpointKernel
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// Secrets in a request's URL (user information, secret query values) reach neither the
/// transports' errors nor their metrics, on either transport.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct SecretTransportTests {
  /// `base` with user information and secret query values holding the word `canary`.
  static func secretURL(_ base: URL, _ path: String, query: String = "") throws -> URL {
    var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
    components.user = "alice"
    components.password = "canary-pw"
    components.percentEncodedPath = path
    components.percentEncodedQuery =
      query + "access_token=canary-q1&X-Amz-Signature=canary-q2&X-Amz-Credential=canary-q3&page=2"
    return try #require(components.url)
  }

  @Test func theTransportsOwnErrorsShowNoSecret() throws {
    let url = try Self.secretURL(try #require(URL(string: "https://api.example.com")), "/a")
    let message = "could not reach \(url.absoluteString)"
    let errors: [(String, any Error)] = [
      (
        "TransportFailure from URLSession",
        TransportFailure.urlSession(
          method: .get, url: url,
          error: URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message]))
      ),
      (
        "TransportFailure.bufferOverflow",
        TransportFailure.bufferOverflow(method: .get, url: url, limit: 1)
      ),
      ("InvalidRequest", InvalidRequest(.unsupported, reason: "a test", method: .get, url: url)),
      (
        "TransportFailure from libcurl",
        CurlFailure.make(
          .proxy, method: .get, url: url, code: 5,
          detail: "Could not resolve proxy: http://bob:canary-proxy@proxy.example.com:3128")
      ),
    ]
    for (name, error) in errors {
      expectNoCanary(in: "\(error)", name)
      expectNoCanary(in: String(reflecting: error), "\(name) reflecting")
      expectNoCanary(in: error.localizedDescription, "\(name) localizedDescription")
    }
    // dump(_:), debuggers and `#expect` messages walk the stored properties.
    let configuration: [(String, Any)] = [
      (
        "CurlHTTPClient.Proxy",
        CurlHTTPClient.Proxy.url(
          try Self.secretURL(
            try #require(URL(string: "http://proxy.example.com:3128")), "/"))
      ),
      (
        "CurlHTTPClient.ClientCertificate",
        CurlHTTPClient.ClientCertificate(
          certificatePath: "/etc/api.example.com/client.pem", privateKeyPath: "/etc/key.pem",
          privateKeyPassword: "canary-key-password")
      ),
    ]
    for (name, value) in errors.map({ ($0.0, $0.1 as Any) }) + configuration {
      let text = reflectedText(value)
      expectNoCanary(in: text, "\(name) dump")
      #expect(text.contains("example.com"), "\(name) dump lacks the host: \(text)")
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func errorsAndMetricsOfRealTransfersShowNoSecret(transport: TransportUnderTest) async throws {
    let metrics = Recorder<TransferMetrics>()
    let client = try transport.makeClient(
      idleTimeout: .milliseconds(300), redirects: .follow(upTo: 1),
      metricsObserver: { metrics.append($0) })
    let requests: [(String, URL)] = [
      ("redirects", try Self.secretURL(TestServers.fault, "/redirect-chain", query: "hops=3&")),
      ("idle timeout", try Self.secretURL(TestServers.fault, "/silent")),
      ("refused", try Self.secretURL(try #require(URL(string: "http://127.0.0.1:9")), "/x")),
    ]
    for (what, url) in requests {
      let error = await failure { try await client.send(HTTPRequest(method: .get, url: url)) }
      expectNoCanary(in: error.map { "\($0)" } ?? "", "\(transport) \(what)")
    }
    // Every metrics value is reported before or soon after its transfer's error.
    let start = ContinuousClock.now
    while metrics.values.count < requests.count, ContinuousClock.now - start < .seconds(10) {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(metrics.values.count >= requests.count)
    for value in metrics.values {
      expectNoCanary(in: "\(value)", "\(transport) TransferMetrics")
    }
  }
}
