import Foundation
import Testing

@testable import EndpointTesting

/// Runs `body` with a fixture file's URL, named after the test, in a fresh directory that is
/// removed with everything in it when `body` returns or throws.
func withTemporaryFixture<Result>(
  _ name: String = #function,
  _ body: (URL) throws -> Result
) throws -> Result {
  try withTemporaryDirectory { try body($0.appending(path: "\(name.filter(\.isLetter)).json")) }
}

/// Runs `body` with a fixture file's URL, named after the test, in a fresh directory that is
/// removed with everything in it when `body` returns or throws.
func withTemporaryFixture<Result>(
  _ name: String = #function,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (URL) async throws -> Result
) async throws -> Result {
  try await withTemporaryDirectory {
    try await body($0.appending(path: "\(name.filter(\.isLetter)).json"))
  }
}

@Suite struct ReplayClientTests {
  let local: [String: String] = [:]
  let ci = ["CI": "true"]

  @Test func recordsMissingFixtureThenReplaysWithoutNetwork() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/users/1").reply(json: #"{"id": 1, "name": "Ada"}"#)
      let recorder = ReplayClient(fixture: file, recordingWith: server, environment: local)
      #expect(try recorder.mode() == .recordMissing)
      let (_, body) = try await recorder.send(request(.get, "https://x.test/users/1"))
      #expect(try await text(body) == #"{"id": 1, "name": "Ada"}"#)
      #expect(FileManager.default.fileExists(atPath: file.path))

      let replayer = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      #expect(try replayer.mode() == .replayOnly)
      let (response, replayed) = try await replayer.send(request(.get, "https://x.test/users/1"))
      #expect(response.status == 200)
      #expect(response.headerFields["Content-Type"] == "application/json")
      let user = try JSONDecoder().decode(User.self, from: try await replayed.collect(upTo: 1000))
      #expect(user == User(id: 1, name: "Ada"))
    }
  }

  @Test func fixtureFileIsSortedPrettyAndInline() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.post, "/echo").reply(json: #"{"z": 1, "a": [1, 2]}"#)
      server.on(.get, "/text").reply(text: "line 1\nline 2")
      server.on(.get, "/bin").reply(.data(Data([0, 1, 2, 255])))
      let client = ReplayClient(fixture: file, recordingWith: server, environment: local)
      _ = try await client.send(
        request(
          .post, "https://x.test/echo", headers: ["Content-Type": "application/json"],
          body: #"{"b":2,"a":1}"#)
      )
      _ = try await client.send(request(.get, "https://x.test/text"))
      _ = try await client.send(request(.get, "https://x.test/bin"))
      let written = try String(contentsOf: file, encoding: .utf8)
      let expected = """
        {
          "format": "endpoint-fixture",
          "interactions": [
            {
              "request": {
                "body": {
                  "json": {
                    "a": 1,
                    "b": 2
                  }
                },
                "headers": [
                  ["Content-Type", "application/json"]
                ],
                "method": "POST",
                "url": "https://x.test/echo"
              },
              "response": {
                "body": {
                  "json": {
                    "a": [1, 2],
                    "z": 1
                  }
                },
                "headers": [
                  ["Content-Type", "application/json"]
                ],
                "status": 200
              }
            },
            {
              "request": {
                "method": "GET",
                "url": "https://x.test/text"
              },
              "response": {
                "body": {
                  "text": "line 1\\nline 2"
                },
                "headers": [
                  ["Content-Type", "text/plain; charset=utf-8"]
                ],
                "status": 200
              }
            },
            {
              "request": {
                "method": "GET",
                "url": "https://x.test/bin"
              },
              "response": {
                "body": {
                  "base64": "AAEC/w=="
                },
                "headers": [
                  ["Content-Type", "application/octet-stream"]
                ],
                "status": 200
              }
            }
          ],
          "version": 1
        }

        """
      #expect(written == expected)
      let reread = try Fixture(contentsOf: file)
      #expect(reread.exchanges.count == 3)
      #expect(reread.exchanges[2].responseBody == Data([0, 1, 2, 255]))
      #expect(reread.encoded() == Data(written.utf8))
    }
  }

  @Test func missingFixtureInReplayModeSaysHowToRecord() async throws {
    try await withTemporaryFixture { file in
      let client = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      let error = await expectFailure(.fixtureMissing) {
        try await client.send(request(.get, "https://x.test/a"))
      }
      let text = try #require(error?.description)
      #expect(text.contains("No fixture at \(file.path)"))
      #expect(text.contains("ENDPOINT_RECORD_MODE=missing swift test --filter"))
      #expect(!FileManager.default.fileExists(atPath: file.path))
    }
  }

  @Test func requestNotInFixtureIsADifferentErrorWithNearestRecordings() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/rates").reply(json: #"{"rate": 1}"#)
      _ = try await ReplayClient(fixture: file, recordingWith: server, environment: local)
        .send(request(.get, "https://x.test/rates?currency=USD"))
      for environment in [ci, local] {
        let replayer = ReplayClient(
          fixture: file, recordingWith: NoNetworkClient(), environment: environment)
        let error = await expectFailure(.requestNotInFixture) {
          try await replayer.send(request(.get, "https://x.test/rates?currency=EUR"))
        }
        let text = try #require(error?.description)
        #expect(text.contains("GET https://x.test/rates?currency=EUR is not in the fixture"))
        #expect(text.contains("  GET https://x.test/rates?currency=USD"))
        #expect(text.contains("ENDPOINT_RECORD_MODE=new"))
        #expect(text.contains("ENDPOINT_RECORD_MODE=all"))
      }
    }
  }

  @Test func identicalRequestsReplayInRecordedOrder() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/job").replies([.text("queued"), .text("running"), .text("done")])
      let recorder = ReplayClient(fixture: file, recordingWith: server, environment: local)
      for _ in 0..<3 { _ = try await recorder.send(request(.get, "https://x.test/job")) }

      let replayer = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      var states: [String] = []
      for _ in 0..<3 {
        states.append(try await text(replayer.send(request(.get, "https://x.test/job")).1))
      }
      #expect(states == ["queued", "running", "done"])
      let error = await expectFailure(.requestNotInFixture) {
        try await replayer.send(request(.get, "https://x.test/job"))
      }
      #expect(error?.alreadyReplayed == 3)
    }
  }

  @Test func recordNewKeepsOldAndAppendsNew() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/a").reply(text: "A").once()
      server.on(.get, "/b").reply(text: "B")
      _ = try await ReplayClient(fixture: file, recordingWith: server, environment: local)
        .send(request(.get, "https://x.test/a"))
      let updater = ReplayClient(
        fixture: file,
        recordingWith: server,
        environment: ["ENDPOINT_RECORD_MODE": "new"]
      )
      // /a replays (the server would refuse a second /a), /b is recorded.
      #expect(try await text(updater.send(request(.get, "https://x.test/a")).1) == "A")
      #expect(try await text(updater.send(request(.get, "https://x.test/b")).1) == "B")
      let exchanges = try ReplayClient.exchanges(inFixture: file)
      #expect(exchanges.map(\.request.url.path) == ["/a", "/b"])
    }
  }

  @Test func reRecordAllReplacesTheFixture() async throws {
    try await withTemporaryFixture { file in
      let old = StubClient()
      old.on(.get, "/v").reply(text: "old")
      _ = try await ReplayClient(fixture: file, recordingWith: old, environment: local)
        .send(request(.get, "https://x.test/v"))
      let new = StubClient()
      new.on(.get, "/v").reply(text: "new")
      let rerecorder = ReplayClient(
        fixture: file, recordingWith: new, mode: .reRecordAll, environment: local)
      #expect(try await text(rerecorder.send(request(.get, "https://x.test/v")).1) == "new")
      let exchanges = try ReplayClient.exchanges(inFixture: file)
      #expect(exchanges.count == 1)
      #expect(exchanges[0].responseBody == Data("new".utf8))
    }
  }

  @Test func recordMissingWithExistingFixtureReplaysOnly() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/a").reply(text: "A")
      _ = try await ReplayClient(fixture: file, recordingWith: server, environment: local)
        .send(request(.get, "https://x.test/a"))
      let client = ReplayClient(
        fixture: file, recordingWith: server, mode: .recordMissing, environment: local)
      await expectFailure(.requestNotInFixture) {
        try await client.send(request(.get, "https://x.test/other"))
      }
      #expect(server.requests.count == 1)
    }
  }

  @Test func environmentVariableWinsOverCodeAndCIDefault() throws {
    try withTemporaryFixture { (file) throws in
      let base = NoNetworkClient()
      #expect(
        try ReplayClient(
          fixture: file, recordingWith: base, mode: .replayOnly,
          environment: ["ENDPOINT_RECORD_MODE": "all", "CI": "1"]
        ).mode() == .reRecordAll
      )
      #expect(
        try ReplayClient(fixture: file, recordingWith: base, mode: .recordNew, environment: ci)
          .mode()
          == .recordNew)
      #expect(
        try ReplayClient(fixture: file, recordingWith: base, environment: ["CI": "false"]).mode()
          == .recordMissing)
      let error = expectFailure(.invalidRecordMode) {
        try ReplayClient(
          fixture: file, recordingWith: base, environment: ["ENDPOINT_RECORD_MODE": "sometimes"]
        ).mode()
      }
      #expect(error?.description.contains("use one of: replay, missing, new, all") == true)
    }
  }

  @Test func recordedErrorsReplayAsRecordedFailure() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/down").fail(with: Timeout())
      let recorder = ReplayClient(fixture: file, recordingWith: server, environment: local)
      await #expect(throws: Timeout.self) {
        try await recorder.send(request(.get, "https://x.test/down"))
      }
      let replayer = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      let error = await expectFailure(.recordedFailure) {
        try await replayer.send(request(.get, "https://x.test/down"))
      }
      #expect(error?.description == "Timeout()")
    }
  }

  @Test func jsonBodiesMatchByMeaningOnReplay() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.post, "/search").body(json: #"{"q": "a"}"#).reply(text: "for a")
      server.on(.post, "/search").body(json: #"{"q": "b"}"#).reply(text: "for b")
      let recorder = ReplayClient(fixture: file, recordingWith: server, environment: local)
      _ = try await recorder.send(request(.post, "https://x.test/search", body: #"{"q":"a"}"#))
      _ = try await recorder.send(request(.post, "https://x.test/search", body: #"{"q":"b"}"#))
      let replayer = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      #expect(
        try await text(
          replayer.send(request(.post, "https://x.test/search", body: #"{ "q" : "b" }"#)).1)
          == "for b")
      #expect(
        try await text(
          replayer.send(request(.post, "https://x.test/search", body: #"{"q":"a"}"#)).1)
          == "for a")
    }
  }

  @Test func invalidFixtureFileIsReportedWithItsPath() async throws {
    try await withTemporaryFixture { file in
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(
        #"{"format": "endpoint-fixture", "version": 1, "interactions": [{"request": {}}]}"#.utf8
      )
      .write(to: file)
      let client = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      let error = await expectFailure(.invalidFixture) {
        try await client.send(request(.get, "https://x.test/a"))
      }
      #expect(
        error?.description
          == #"The fixture \#(file.path) cannot be used: interaction 1: the request has no "method""#
      )
      expectFailure(.invalidFixture) {
        try Fixture(
          data: Data(#"{"format": "endpoint-fixture", "version": 99, "interactions": []}"#.utf8))
      }
      expectFailure(.invalidFixture) { try Fixture(data: Data("[]".utf8)) }
    }
  }

  @Test func fixtureURLIsOnePerTestBesideTheTestFile() {
    let url = ReplayClient.fixtureURL(
      named: "userProfile()", file: "/repo/Tests/AppTests/UserTests.swift")
    #expect(url.path == "/repo/Tests/AppTests/Fixtures/UserTests/userProfile.json")
  }
}

@Suite struct ReplayContentLengthTests {
  @Test func replayedContentLengthIsTheReplayedBodysLength() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/me").reply(
        headers: ["Content-Length": "40"],
        json: #"{"name": "Ada",    "token": "abcdef"}"#
      )
      let redaction = Redaction.standard.adding(jsonKeys: ["token"])
      _ = try await ReplayClient(
        fixture: file,
        recordingWith: server,
        redaction: redaction,
        environment: [:]
      ).send(request(.get, "https://x.test/me"))
      let replayer = ReplayClient(
        fixture: file,
        recordingWith: NoNetworkClient(),
        redaction: redaction,
        environment: ["CI": "1"]
      )
      let (response, body) = try await replayer.send(request(.get, "https://x.test/me"))
      let data = try await body.collect(upTo: 1000)
      #expect(data == Data(#"{"name":"Ada","token":"<redacted>"}"#.utf8))
      #expect(response.headerFields["Content-Length"] == "\(data.count)")
    }
  }
}
