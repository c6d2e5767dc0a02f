import Foundation
import Testing

@testable import EndpointCurl

/// TLS and HTTP/2 against the loopback HTTPS servers, whose certificates come from a throwaway
/// authority (`TestServers.testCAPath`) that no system trust store knows.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TLSTests {
  /// A client that trusts the test authority only, recording every transfer's metrics.
  private func trustingClient(
    requiresTLS13: Bool = false,
    recorder: Recorder<TransferMetrics>? = nil
  ) throws -> CurlHTTPClient {
    let tls = CurlHTTPClient.TLS(
      caBundlePath: try TestServers.testCAPath,
      requiresTLS13: requiresTLS13
    )
    var observer: (@Sendable (TransferMetrics) -> Void)?
    if let recorder { observer = { recorder.append($0) } }
    return try CurlHTTPClient(configuration: .init(tls: tls, metricsObserver: observer))
  }

  /// The error of a request expected to fail, with the reason it failed.
  private func failure(
    of client: CurlHTTPClient,
    _ url: URL
  ) async throws -> TransportFailure {
    try await #require(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
  }

  // MARK: - Trusted

  @Test func aGetTrustingTheTestAuthoritySucceedsOverHTTP2AndReportsTheHandshake() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(recorder: recorded)
    let url = try TestServers.https.adding("/get?probe=tls")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    // httpbin saw a request over TLS for the URL that was asked for.
    #expect(json["url"] as? String == url.absoluteString)
    #expect(json["args"] as? [String: String] == ["probe": "tls"])

    let metrics = try #require(recorded.values.first)
    #expect(recorded.values.count == 1)
    #expect(metrics.httpVersion == "2")
    #expect(metrics.reusedConnection == false)
    let connect = try #require(metrics.connect)
    let handshake = try #require(metrics.tlsHandshake)
    let firstByte = try #require(metrics.firstByte)
    // libcurl's timings run from the start of the transfer: the handshake ends after the TCP
    // connection and before the first byte of the answer.
    #expect(connect <= handshake)
    #expect(handshake <= firstByte)
    #expect(metrics.description.contains("tls"))
  }

  @Test func theServerIsTrustedUnderItsHostName() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(recorder: recorded)
    let url = try TestServers.httpsAlt.adding("/get")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect((json["headers"] as? [String: String])?["Host"] == "localhost:\(url.port ?? 0)")
    #expect(recorded.values.first?.httpVersion == "2")
  }

  @Test func aJSONPostEchoesBackOverHTTP2() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(recorder: recorded)
    let document: [String: Any] = ["name": "endpoint", "sizes": [1, 2, 3], "secure": true]
    let payload = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    var request = HTTPRequest(
      method: .post,
      url: try TestServers.https.adding("/post"),
      body: HTTPBody(payload)
    )
    try request.headerFields.append("application/json", for: "Content-Type")
    let (response, echo) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    #expect(echo["data"] as? String == String(decoding: payload, as: UTF8.self))
    let json = try #require(echo["json"] as? [String: Any])
    #expect(json["name"] as? String == "endpoint")
    #expect(json["sizes"] as? [Int] == [1, 2, 3])
    #expect(json["secure"] as? Bool == true)
    #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/json")
    #expect(recorded.values.first?.httpVersion == "2")
    #expect(recorded.values.first?.bytesSent == Int64(payload.count))
  }

  @Test func aLargeStreamedBodyArrivesWholeOverHTTP2() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(recorder: recorded)
    // 100 KiB (httpbin's largest) written by the server 1,000 bytes at a time: more than one
    // HTTP/2 frame and more than the client keeps inline, so it is streamed to the caller.
    let size = 102_400
    let url = try TestServers.https.adding("/range/\(size)?chunk_size=1000")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(body.length == Int64(size))
    // Streamed, not held in memory (the pieces that wait for the reader may come joined).
    #expect(body.data == nil)
    var received = Data()
    var chunks = 0
    for try await chunk in body {
      received.append(chunk)
      chunks += 1
    }
    // httpbin's /range body is the alphabet repeated: byte i is "a" + i % 26.
    let expected = Data((0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) })
    #expect(received.count == size)
    #expect(received == expected)
    #expect(chunks >= 1)
    #expect(recorded.values.first?.httpVersion == "2")
    #expect(recorded.values.first?.bytesReceived == Int64(size))
  }

  @Test func streamedLinesArriveInOrderOverHTTP2() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(recorder: recorded)
    let url = try TestServers.https.adding("/stream/20")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    var ids: [Int] = []
    for try await line in body.lines where !line.isEmpty {
      ids.append(try #require(try jsonObject(Data(line.utf8))["id"] as? Int))
    }
    #expect(ids == Array(0..<20))
    #expect(recorded.values.first?.httpVersion == "2")
  }

  @Test func concurrentRequestsMultiplexOnOneHTTP2Connection() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(recorder: recorded)
    let base = try TestServers.https
    let count = 12
    let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
      for index in 0..<count {
        group.addTask {
          let url = base.adding("/anything/\(index)")
          let (response, json) = try await sendForJSON(
            client,
            HTTPRequest(method: .get, url: url)
          )
          #expect(response.status == 200)
          return (index, json["url"] as? String)
        }
      }
      return try await group.reduce(into: [Int: String?]()) { $0[$1.0] = $1.1 }
    }
    #expect(answers.count == count)
    for (index, url) in answers {
      #expect(url == base.adding("/anything/\(index)").absoluteString)
    }
    let metrics = recorded.values
    #expect(metrics.count == count)
    #expect(metrics.allSatisfy { $0.httpVersion == "2" })
    // One transfer opened the connection; every other one ran as a stream on it.
    #expect(metrics.filter { $0.reusedConnection == false }.count == 1)
    #expect(try await client.waitForIdleHandles())
  }

  @Test func aBurstOverPlainHTTPOpensItsConnectionsWithoutWaiting() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try CurlHTTPClient(
      configuration: .init(metricsObserver: { recorded.append($0) })
    )
    // Each answer takes 300 ms. Over http no connection can multiplex, so no request of the
    // burst waits for another's connection: each opens its own at once, none reuses one.
    let url = try TestServers.httpbin.adding("/delay/0.3")
    let count = 4
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<count {
        group.addTask {
          let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
          _ = try await body.collect(upTo: 1 << 16)
          #expect(response.status == 200)
        }
      }
      try await group.waitForAll()
    }
    let metrics = recorded.values
    #expect(metrics.count == count)
    #expect(metrics.allSatisfy { $0.reusedConnection == false && $0.httpVersion == "1.1" })
  }

  @Test func requiringTLS13SucceedsAgainstAServerThatOffersIt() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(requiresTLS13: true, recorder: recorded)
    let url = try TestServers.https.adding("/get")
    let (response, _) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(recorded.values.first?.httpVersion == "2")
  }

  @Test func theDefaultMinimumAcceptsATLS12ServerOverHTTP11() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try trustingClient(recorder: recorded)
    let url = try TestServers.httpsTLS12Only.adding("/hello")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(json["tls_version"] as? String == "TLSv1.2")
    #expect(json["path"] as? String == "/hello")
    // The server's ALPN offers http/1.1 only.
    #expect(recorded.values.first?.httpVersion == "1.1")
    #expect(recorded.values.first?.tlsHandshake != nil)
  }

  // MARK: - Refused

  @Test func requiringTLS13FailsAgainstAServerCappedAtTLS12() async throws {
    let client = try trustingClient(requiresTLS13: true)
    let error = try await failure(of: client, try TestServers.httpsTLS12Only.adding("/get"))
    #expect(error.kind == .tls)
    #expect(error.code == 35)
    #expect(error.description.lowercased().contains("protocol version"))
    #expect(!error.isTransient)
  }

  @Test func theSystemTrustStoreAloneRefusesTheTestAuthority() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.https.adding("/get")
    let error = try await failure(of: client, url)
    #expect(error.kind == .tls)
    #expect(error.code == 60)
    #expect(error.url == url)
    // libcurl says the certificate could not be verified.
    #expect(error.description.contains("certificate"))
    #expect(error.description.contains("the secure connection failed"))
    #expect(!error.isTransient)
  }

  @Test func aCertificateForAnotherNameIsRefused() async throws {
    let client = try trustingClient()
    let error = try await failure(of: client, try TestServers.httpsWrongName.adding("/get"))
    #expect(error.kind == .tls)
    #expect(error.code == 60)
    // libcurl names the host it expected the certificate to carry.
    #expect(error.description.contains("127.0.0.1"))
  }

  @Test func aCABundlePathThatDoesNotExistFailsNamingTheFile() async throws {
    let path = "/nonexistent/endpoint-tls-tests/ca.pem"
    let client = try CurlHTTPClient(configuration: .init(tls: .init(caBundlePath: path)))
    let error = try await failure(of: client, try TestServers.https.adding("/get"))
    #expect(error.kind == .tls)
    #expect(error.code == 77)
    #expect(error.description.contains(path))
  }

  @Test func aCABundleThatIsNotPEMFailsAsTLS() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("endpoint-tls-tests-\(UUID().uuidString).pem").path
    try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let client = try CurlHTTPClient(configuration: .init(tls: .init(caBundlePath: path)))
    let error = try await failure(of: client, try TestServers.https.adding("/get"))
    #expect(error.kind == .tls)
    #expect(error.code == 77)
  }
}
