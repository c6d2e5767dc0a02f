import Foundation
import Synchronization
import Testing

@testable import EndpointTesting

/// Requests carrying a distinct canary secret in every place a secret can hide; nothing a
/// recording writes may contain the word `canary`.
enum Canaries {
  static let url =
    "https://alice:canary-userinfo@api.example.com/v1/login?x-api-key=canary-query&page=2"

  static func requests() throws -> [HTTPRequest] {
    let form = RequestPayload.formURLEncoded([("user", "ada"), ("password", "canary-form")])
    let multipart = RequestPayload.multipart([
      .text(name: "user", value: "ada"), .text(name: "client_secret", value: "canary-multipart"),
    ])
    let json = RequestPayload(
      contentType: "application/json",
      body: HTTPBody(#"{"user":{"name":"ada","credentials":{"refresh_token":"canary-json"}}}"#)
    )
    return try [form, multipart, json].map { payload in
      var fields = try HTTPFields([
        ("X-Session-Id", "canary-header"), ("Accept", "application/json"),
      ])
      if let type = payload.contentType { try fields.append(type, for: "Content-Type") }
      return HTTPRequest(
        method: .post, url: try #require(URL(string: url)), headerFields: fields, body: payload.body
      )
    }
  }

  /// The server: a JSON token labelled as plain text, and a redirect carrying an OAuth code.
  static let server = FixedClient(
    status: 200,
    headers: ["Content-Type": "text/plain", "Location": "/callback?code=canary-location&state=ok"],
    body: #"{"token_type":"bearer","access_token":"canary-response","id":7}"#
  )
}

/// A client that fails with an error whose text carries secrets.
struct LeakyFailureClient: HTTPClient {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    throw Failure(
      description:
        "connection reset for https://x.test/a?sig2=canary-error-query (session canary-header, "
        + "Bearer canary-error-bearer)"
    )
  }
}

/// A client that answers with raw bytes and header fields.
struct DataClient: HTTPClient {
  let headers: [String: String]
  let body: Data

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    (
      HTTPResponse(status: 200, headerFields: try HTTPFields(headers), url: request.url),
      HTTPBody(body)
    )
  }
}

/// Gzip samples made with Python's `gzip.compress`.
enum GzipSamples {
  /// `{"note":"plain","data":"reg-secret-77"}`, in a fixed-Huffman block.
  static let registeredSecret = Data(
    base64Encoded: "H4sIAAAAAAACA6tWyssvSVWyUirISczMU9JRSkksSQRyi1LTdYtTk4tSS3TNzZVqAeogot8nAAAA")!

  /// 300 words, then `"access_token":"canary-gzip-dyn","user":"ada"`, in a dynamic-Huffman
  /// block with back-references.
  static let tokenResponse = Data(
    base64Encoded:
      "H4sIAAAAAAACA11X7W4jNwx8F/+uAZGURPJepSgKN/GlQZPcIR/oXYu+e22tVjPOP0ErUSRnOOT+e3h8Pz+/Hb78erg/P72fjibl8Mvhj/Nl6RaX5dPjy8ePY83r9sPp+fl0TN1PaFkHWr/ufns+P5yOIXlZn56+/3k5on5Zv57vvr3eH1u9fnj7+/Hr+1HDlsWofZns10c3X7K3ZSdqfLK/rSVjmTHxtd+rrqfieuT921/nl6PVBpcFT0noWteoy0wKvI9e1j4eatHh2HB+HpdMpM9suaAJF+rI2ua9GiJUjtzWsrrhXSPXer9++Pr44/3j9Xz0kYctdqkIsgPPtIbtVuiyBlyyXtcNH+uZRaU4tRheK3DWFU9o4HK3grSPM9vdbI5cpLNLfRm1kZjBlCS0vQHtgerkWJL5yGXe01ZcMeKdruXioZWytmVsL28ShrT1ZagLCG2W6zYoP7i3mxFH2qIo+ey4mvyuKMFH1BWkp1P6W13u9AKXu8o60xo/0EaYUwYUJbyBtKNNrO7dqWgSaFdGryrTy+jKYPAKr4Fr0UCRJoW8gq5QMWplOg4Y5gsKikgFF4gtzWOHvAVYkYECbAUgU+2qNAA1kjqxr5CP7kohBlEzDOG2ihC7Iy6r9LAzVA7NyVFaM154l0r8NdjsJCdBou6lMhVCb16Dr1mBvyps6WDhZksgdpGEgEB/QmEmEmRund0DpaQj2WYEtyd7mkbdpg4WTVtYuqDgRbgkmxNyChnkVkKim6xLI33zzKD/oFSwO5RFFUI5URLurDThjP9uUwQCEaT0TWG/KsdFLbU3tOlsnLpqq61vVvc25oLIBv0nyFFI7pg8Mb5MNRtB7wkbQezdAWrfQJHBqP1l4aYWBQyoSYrk5Kw2Aa06qLe1jZnjQBAximdqZ0JdugLO1vzGDQERB5P26aDcpFwBUm0QbiFx8ECTMEfOxAA79U2pMCmDhxNGRSPRosQN0LYnvM5B1W3CC9JyUjADqzZo534Bfn0U8xRIW20zFHGErm2hOaeNcl+JGhyfnnXMnpBluamJLZJJZqOZ00m8KQtabyYjpWZCtaNGzWHIxipa/TQvzieSO3a5aXdCwgtmR7DVpNlNaUIQRNENGZbGF7gTbDU1URZMkIlydpoat8rZtYAZm6TajjlIGgZjak1i6I8yCm3ytSRNUyBs65TUbcZn7uwiL+s3QCDY6aS/tk64f+oUu3CDsF7xc7A11l1MSQLG3W0AoJHMyQGvpPo3UFTq+6rlU5oZr1n+rvQwdK8pUrjxb7I6QD8zdFhLtJ7t32J2YRpbTOBbQGy3LjwlotJVmsxaJ/NMXLlI1m+XL3d357e334eRw5fD3enl9Prz+PDP4/fj/c+Xy/GPt/Pr5cPp/nT4738ZXBQIYw4AAA=="
  )!
}

@Suite struct SecretCanaryTests {
  @Test func recordedJSONAndHARFixturesHoldNoCanary() async throws {
    try await withTemporaryFixture { file in
      let client = ReplayClient(fixture: file, recordingWith: Canaries.server, environment: [:])
      for request in try Canaries.requests() {
        let (_, body) = try await client.send(request)
        // The caller still gets the real response.
        #expect(try await text(body).contains("canary-response"))
      }
      let written = try Data(contentsOf: file)
      let har = try ReplayClient.har(ofFixture: file)
      for output in [written, har, client.fixture.har(), client.fixture.encoded()] {
        let text = String(decoding: output, as: UTF8.self)
        #expect(!text.contains("canary"), "\(text)")
        #expect(text.contains("ada"))
      }
    }
  }

  @Test func aFixtureWithRedactedSecretsStillReplaysOtherCredentials() async throws {
    try await withTemporaryFixture { file in
      let recorder = ReplayClient(fixture: file, recordingWith: Canaries.server, environment: [:])
      for request in try Canaries.requests() { _ = try await recorder.send(request) }
      let replayer = ReplayClient(
        fixture: file, recordingWith: NoNetworkClient(), environment: ["CI": "true"])
      for var request in try Canaries.requests() {
        request.url = try #require(
          URL(string: "https://bob:other@api.example.com/v1/login?x-api-key=other&page=2"))
        try request.headerFields.set("other-session", for: "X-Session-Id")
        #expect(try await replayer.send(request).0.status == 200)
      }
    }
  }

  @Test func recordedErrorTextsHoldNoCanary() async throws {
    try await withTemporaryFixture { file in
      let client = ReplayClient(
        fixture: file,
        recordingWith: LeakyFailureClient(),
        redaction: .standard.adding(queryParameterNames: ["sig2"]),
        environment: [:]
      )
      let request = try #require(try Canaries.requests().first)
      await #expect(throws: LeakyFailureClient.Failure.self) { try await client.send(request) }
      let written = try String(contentsOf: file, encoding: .utf8)
      #expect(written.contains("connection reset"))
      #expect(!written.contains("canary"), "\(written)")
    }
  }

  @Test func aGzipResponseIsStoredDecompressedWithItsSecretsRedacted() async throws {
    try await withTemporaryFixture { file in
      let server = DataClient(
        headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
        body: GzipSamples.tokenResponse)
      let client = ReplayClient(fixture: file, recordingWith: server, environment: [:])
      _ = try await client.send(request(.get, "https://x.test/session"))
      let written = try String(contentsOf: file, encoding: .utf8)
      #expect(!written.contains("canary"))
      #expect(written.contains(#""user": "ada""#))
      #expect(!written.contains("Content-Encoding"))
    }
  }
}
