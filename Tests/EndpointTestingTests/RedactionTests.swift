import EndpointTesting
import Foundation
import Testing

@Suite struct RedactionTests {
  @Test func credentialsAndNamedFieldsNeverReachDiskAndReplayStillMatches() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.post, "/login").reply(
        headers: ["Set-Cookie": "session=cookie-secret", "X-Session": "header-secret"],
        json:
          #"{"access_token": "token-secret", "user": {"Refresh_Token": "refresh-secret", "id": 1}}"#
      )
      let redaction = Redaction.standard.adding(
        headerNames: ["x-session", "X-Api-Key"],
        queryParameterNames: ["api_key"],
        jsonKeys: ["access_token", "refresh_token", "password"]
      )
      let login = try request(
        .post,
        "https://x.test/login?api_key=query-secret&page=1",
        headers: [
          "Authorization": "Bearer auth-secret", "Cookie": "c=cookie2-secret",
          "Proxy-Authorization": "proxy-secret", "X-Api-Key": "key-secret",
          "Content-Type": "application/json",
        ],
        body: #"{"user": "ada", "password": "password-secret"}"#
      )
      let recorder = ReplayClient(
        fixture: file, recordingWith: server, redaction: redaction, environment: [:])
      let (_, live) = try await recorder.send(login)
      // The caller still gets the real response while recording.
      #expect(try await text(live).contains("token-secret"))

      let written = try String(contentsOf: file, encoding: .utf8)
      #expect(!written.contains("-secret"))
      #expect(written.contains(#"["Authorization", "<redacted>"]"#))
      #expect(written.contains(#""password": "<redacted>""#))
      #expect(written.contains(#""Refresh_Token": "<redacted>""#))
      #expect(written.contains("api_key=%3Credacted%3E&page=1"))

      // A later run with other credentials still replays.
      let replayer = ReplayClient(
        fixture: file, recordingWith: NoNetworkClient(), redaction: redaction,
        environment: ["CI": "1"])
      let again = try request(
        .post,
        "https://x.test/login?page=1&api_key=other-key",
        headers: ["Authorization": "Bearer other", "Content-Type": "application/json"],
        body: #"{"password": "other-password", "user": "ada"}"#
      )
      #expect(try await replayer.send(again).0.status == 200)
    }
  }

  @Test func formBodyFieldsAreRedacted() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.post, "/token").reply(status: 200)
      let client = ReplayClient(
        fixture: file,
        recordingWith: server,
        redaction: .standard.adding(queryParameterNames: ["client_secret"]),
        environment: [:]
      )
      _ = try await client.send(
        request(
          .post,
          "https://x.test/token",
          headers: ["Content-Type": "application/x-www-form-urlencoded"],
          body: "grant_type=client_credentials&client_secret=form-secret"
        )
      )
      let written = try String(contentsOf: file, encoding: .utf8)
      #expect(!written.contains("form-secret"))
      #expect(written.contains("client_secret=%3Credacted%3E"))
    }
  }

  @Test(arguments: [
    ("as written", "/p?note=s3cr3t-value", ""),
    ("percent-encoded", "/p?note=s3cr3t%20value%21", ""),
    ("base64", "/p", Data("user:s3cr3t value!".utf8).base64EncodedString()),
  ])
  func writingRefusesWhenARegisteredSecretRemains(form: String, path: String, header: String)
    async throws
  {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/p").reply(status: 200)
      let secret = form == "as written" ? "s3cr3t-value" : "s3cr3t value!"
      let client = ReplayClient(
        fixture: file,
        recordingWith: server,
        secrets: [secret],
        environment: [:]
      )
      // A field the rule does not know as secret, so the check is what stops it.
      let headers = header.isEmpty ? [:] : ["X-Trace": header]
      let error = await expectFailure(.secretInFixture) {
        try await client.send(request(.get, "https://x.test" + path, headers: headers))
      }
      #expect(error?.secretForm == form)
      #expect(error?.secretLocation == "interaction 1 request")
      #expect(error?.description.contains(secret) == false)
      #expect(!FileManager.default.fileExists(atPath: file.path))
    }
  }

  @Test func secretInBinaryBodyIsFoundDespiteBase64() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      var payload = Data([0, 1, 2])
      payload.append(Data("tok-123456".utf8))
      server.on(.get, "/bin").reply(.data(payload))
      let client = ReplayClient(
        fixture: file,
        recordingWith: server,
        secrets: ["", "tok-123456"],
        environment: [:]
      )
      let error = await expectFailure(.secretInFixture) {
        try await client.send(request(.get, "https://x.test/bin"))
      }
      #expect(error?.secretNumber == 2)
      #expect(error?.secretLocation == "interaction 1 response")
    }
  }

  @Test func commonCredentialQueryParametersAreRedactedWithoutConfiguration() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/feed").reply(status: 200)
      let client = ReplayClient(fixture: file, recordingWith: server, environment: [:])
      _ = try await client.send(
        request(
          .get, "https://x.test/feed?access_token=tok-1&page=3", headers: ["X-Auth-Token": "tok-2"])
      )
      let written = try String(contentsOf: file, encoding: .utf8)
      #expect(!written.contains("tok-1"))
      #expect(!written.contains("tok-2"))
      #expect(written.contains("access_token=%3Credacted%3E&page=3"))
    }
  }
}
