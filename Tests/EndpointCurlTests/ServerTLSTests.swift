import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl

/// Mutual TLS and public-key pinning against the loopback TLS listeners
/// (`Tests/Servers/tls_server.py`): the `mtls` listener requires a client certificate from the
/// test authority; `Tests/Servers/make_test_ca.py` also makes one from an unrelated authority,
/// an encrypted copy of the key and the pin of the servers' key.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ServerTLSTests {
  private func client(
    certificate: CurlHTTPClient.ClientCertificate? = nil,
    pins: [PublicKeyPin] = []
  ) throws -> CurlHTTPClient {
    let tls = CurlHTTPClient.TLS(
      caBundlePath: try TestServers.testCAPath,
      clientCertificate: certificate,
      pinnedPublicKeys: pins
    )
    return try CurlHTTPClient(configuration: .init(tls: tls))
  }

  private func testCertificate(encrypted: Bool = false) throws -> CurlHTTPClient.ClientCertificate {
    try CurlHTTPClient.ClientCertificate(
      certificatePath: TestServers.tlsFile("client-cert.pem"),
      privateKeyPath: TestServers.tlsFile(
        encrypted ? "client-key-encrypted.pem" : "client-key.pem"),
      privateKeyPassword: encrypted ? TestServers.tlsFileText("client-key-password.txt") : nil
    )
  }

  private func tlsFailure(
    _ client: CurlHTTPClient,
    _ url: URL
  ) async throws -> TransportFailure {
    let failure = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(failure.kind == .tls, "\(failure)")
    return failure
  }

  /// Whether a request whose path contained `token` reached the listener.
  private func listenerSaw(_ token: String) async throws -> Bool {
    let (_, json) = try await sendForJSON(
      try client(),
      HTTPRequest(method: .get, url: try TestServers.httpsTLS12Only.adding("/seen/\(token)"))
    )
    return try #require(json["seen"] as? Bool)
  }

  // MARK: - Mutual TLS

  @Test func aClientCertificateFromTheTestAuthorityIsAccepted() async throws {
    let client = try client(certificate: testCertificate())
    let url = try TestServers.httpsMutualTLS.adding("/mtls")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(json["listener"] as? String == "mtls")
    #expect(json["client"] as? String == "endpoint-test-client")
    // A second request reuses the authenticated connection.
    let (again, _) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(again.status == 200)
  }

  @Test func anEncryptedKeyIsReadWithItsPassword() async throws {
    let client = try client(certificate: testCertificate(encrypted: true))
    let url = try TestServers.httpsMutualTLS.adding("/encrypted-key")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(json["client"] as? String == "endpoint-test-client")
  }

  @Test func aWrongPasswordFailsAsTLSAndIsNeverShown() async throws {
    var certificate = try testCertificate(encrypted: true)
    certificate.privateKeyPassword = "not-the-password-4711"
    let client = try client(certificate: certificate)
    let failure = try await tlsFailure(client, try TestServers.httpsMutualTLS.adding("/bad-pass"))
    #expect(!failure.description.contains("not-the-password-4711"))
    #expect(!String(describing: certificate).contains("not-the-password-4711"))
    #expect(String(describing: certificate).contains("<redacted>"))
  }

  @Test func withoutAClientCertificateTheServerRefusesTheConnection() async throws {
    let token = "no-cert-\(UUID().uuidString)"
    let failure = try await tlsFailure(
      try client(),
      try TestServers.httpsMutualTLS.adding("/\(token)")
    )
    #expect(failure.description.contains("secure connection"))
    #expect(try await listenerSaw(token) == false)
  }

  @Test func aClientCertificateFromAnotherAuthorityIsRefused() async throws {
    let other = CurlHTTPClient.ClientCertificate(
      certificatePath: try TestServers.tlsFile("other-client-cert.pem"),
      privateKeyPath: try TestServers.tlsFile("other-client-key.pem")
    )
    let token = "other-ca-\(UUID().uuidString)"
    _ = try await tlsFailure(
      try client(certificate: other),
      try TestServers.httpsMutualTLS.adding("/\(token)")
    )
    #expect(try await listenerSaw(token) == false)
  }

  @Test func anUnreadableCertificateFileIsRefusedWhenTheClientIsMade() throws {
    var configuration = CurlHTTPClient.Configuration()
    configuration.tls.clientCertificate = .init(
      certificatePath: "/nonexistent/client.pem",
      privateKeyPath: "/nonexistent/client-key.pem"
    )
    let error = try #require(throws: InvalidRequest.self) {
      _ = try CurlHTTPClient(configuration: configuration)
    }
    #expect(error.kind == .configuration)
    #expect(error.setting == "tls.clientCertificate")
    #expect(error.description.contains("/nonexistent/client.pem"))
  }

  // MARK: - Public-key pinning

  @Test func theServersOwnKeyPinIsAccepted() async throws {
    let pin = try PublicKeyPin(TestServers.tlsFileText("server-pin.txt"))
    let unrelated = try PublicKeyPin(sha256: [UInt8](repeating: 7, count: 32))
    // One matching pin among several is enough (a key rotation lists the next key too).
    let client = try client(pins: [unrelated, pin])
    let url = try TestServers.httpsTLS12Only.adding("/pinned")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(json["path"] as? String == "/pinned")
    // The HTTP/2 server has the same key.
    let (h2, _) = try await client.send(
      HTTPRequest(method: .get, url: try TestServers.https.adding("/get"))
    )
    #expect(h2.status == 200)
  }

  @Test func aPinMismatchFailsBeforeAnyRequestByteAndNamesPinning() async throws {
    let unrelated = try PublicKeyPin(sha256: [UInt8](repeating: 7, count: 32))
    let token = "pin-mismatch-\(UUID().uuidString)"
    let failure = try await tlsFailure(
      try client(pins: [unrelated]),
      try TestServers.httpsTLS12Only.adding("/\(token)")
    )
    #expect(failure.description.contains("public-key pinning"))
    #expect(failure.code == 90)
    #expect(try await listenerSaw(token) == false)
  }

  @Test func pinsAreReadFromTheirTextFormOrRefused() throws {
    let text = try TestServers.tlsFileText("server-pin.txt")
    let pin = try PublicKeyPin(text)
    #expect(pin.description == text)
    #expect(pin.sha256.count == 32)
    #expect(try PublicKeyPin(pin.base64) == pin)
    expectInvalidRequest(.publicKeyPin) { try PublicKeyPin("sha256//not base64") }
    expectInvalidRequest(.publicKeyPin) { try PublicKeyPin("sha256//AAAA") }
    expectInvalidRequest(.publicKeyPin) { try PublicKeyPin(sha256: [1, 2, 3]) }
  }
}
