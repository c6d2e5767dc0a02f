import Foundation
import Testing

@testable import EndpointTesting

/// Every kind of ``TestDoubleFailure``: how it is thrown, what it carries, and its whole message.
@Suite struct TestDoubleFailureTests {
  let ci = ["CI": "true"]
  let replayMode = "mode ENDPOINT_RECORD_MODE=replay (replay only)"

  @Test func kindsPrintTheirNames() {
    let kinds: [TestDoubleFailure.Kind] = [
      .noMatchingStub, .invalidStub, .verificationFailed, .fixtureMissing, .requestNotInFixture,
      .invalidFixture, .secretInFixture, .invalidRecordMode, .recordedFailure,
    ]
    #expect(
      kinds.map(\.description) == [
        "noMatchingStub", "invalidStub", "verificationFailed", "fixtureMissing",
        "requestNotInFixture", "invalidFixture", "secretInFixture", "invalidRecordMode",
        "recordedFailure",
      ])
    #expect(Set(kinds).count == kinds.count)
  }

  @Test func noMatchingStub() async throws {
    let stub = StubClient()
    stub.on(.get, "/b").reply(status: 200)
    let sent = try request(.get, "https://x.test/a", headers: ["Accept": "application/json"])
    let error = try #require(await expectFailure(.noMatchingStub) { try await stub.send(sent) })
    #expect(error.method == .get)
    #expect(error.url?.absoluteString == "https://x.test/a")
    #expect(error.request?.headerFields["Accept"] == "application/json")
    #expect(error.body == Data())
    #expect(error.nearestRules.count == 1)
    let nearest = try #require(error.nearestRules.first)
    #expect(nearest.hasPrefix("#1 GET /b\n"))
    #expect(nearest.contains("✓ method"))
    #expect(nearest.contains("✗ path"))
    #expect(nearest.components(separatedBy: "✗").count == 2)
    #expect(
      error.description == """
        No stub rule matches GET https://x.test/a
          Accept: application/json
          body: <empty>
        Nearest rules:
          \(error.nearestRules[0])
        A rule that would match:
          stub.on(.get, "/a").reply(status: 200)
        """)
  }

  @Test func invalidStub() async throws {
    let stub = StubClient()
    stub.on(.get, "/x").reply(status: 200).times(0)
    let error = await expectFailure(.invalidStub) {
      try await stub.send(request(.get, "https://x.test/x"))
    }
    #expect(error?.rule == "#1 GET /x")
    #expect(error?.reason == "times(0): a rule must answer at least once")
    #expect(
      error?.description
        == "Invalid stub rule #1 GET /x: times(0): a rule must answer at least once")
  }

  @Test func invalidStubOfAComputedResponseNamesNoRule() async throws {
    let stub = StubClient()
    stub.on(.get, "/x").reply(with: { _ in .status(42) })
    let error = await expectFailure(.invalidStub) {
      try await stub.send(request(.get, "https://x.test/x"))
    }
    #expect(error?.rule == nil)
    #expect(error?.description == "Invalid stub: status 42 is not between 100 and 599")
  }

  @Test func verificationFailed() {
    let stub = StubClient()
    stub.on(.get, "/never").reply(status: 200)
    let error = expectFailure(.verificationFailed) { try stub.verify() }
    #expect(error?.problems == ["rule #1 GET /never was never used"])
    #expect(error?.requests.isEmpty == true)
    #expect(
      error?.description == """
        Stub verification failed:
          - rule #1 GET /never was never used
        Requests received: none
        """)
  }

  @Test func fixtureMissing() async throws {
    try await withTemporaryFixture { file in
      let client = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      let error = await expectFailure(.fixtureMissing) {
        try await client.send(request(.get, "https://x.test/a"))
      }
      #expect(error?.file == file.path)
      #expect(error?.method == .get)
      #expect(error?.url?.absoluteString == "https://x.test/a")
      #expect(error?.mode == .replayOnly)
      #expect(
        error?.description == """
          No fixture at \(file.path) for GET https://x.test/a (\(replayMode)).
          To record it, run the test once against the real server with \
          ENDPOINT_RECORD_MODE=missing, for example:
            ENDPOINT_RECORD_MODE=missing swift test --filter <TestName>
          then commit the new file. (Or pass mode: .recordMissing to ReplayClient while recording.)
          """)
    }
  }

  @Test func requestNotInFixture() async throws {
    try await withTemporaryFixture { file in
      let recorder = ReplayClient(fixture: file, recordingWith: FixedClient(), environment: [:])
      _ = try await recorder.send(request(.get, "https://x.test/rates?currency=USD"))
      let replayer = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      let error = await expectFailure(.requestNotInFixture) {
        try await replayer.send(request(.get, "https://x.test/rates?currency=EUR"))
      }
      #expect(error?.nearestRecordings == ["GET https://x.test/rates?currency=USD"])
      #expect(error?.alreadyReplayed == 0)
      #expect(error?.mode == .replayOnly)
      #expect(
        error?.description == """
          GET https://x.test/rates?currency=EUR is not in the fixture \(file.path) (\(replayMode)).
          Recorded requests with the same method and path:
            GET https://x.test/rates?currency=USD
          To record it and keep the other recordings, run the test against the real server with \
          ENDPOINT_RECORD_MODE=new; to record the whole fixture again, with \
          ENDPOINT_RECORD_MODE=all, for example:
            ENDPOINT_RECORD_MODE=new swift test --filter <TestName>
          """)
    }
  }

  @Test func requestNotInFixtureAfterEveryRecordingWasReplayed() async throws {
    try await withTemporaryFixture { file in
      let recorder = ReplayClient(fixture: file, recordingWith: FixedClient(), environment: [:])
      _ = try await recorder.send(request(.get, "https://x.test/job"))
      let replayer = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      _ = try await replayer.send(request(.get, "https://x.test/job"))
      let error = await expectFailure(.requestNotInFixture) {
        try await replayer.send(request(.get, "https://x.test/job"))
      }
      #expect(error?.alreadyReplayed == 1)
      #expect(
        error?.description.hasPrefix(
          "GET https://x.test/job was recorded 1 time(s) in \(file.path) and every recording was "
            + "already replayed; the test makes it more often than when it was recorded "
            + "(\(replayMode)).\nRecorded requests with the same method and path:\n"
            + "  GET https://x.test/job\nTo record it") == true)
    }
  }

  @Test func invalidFixture() {
    let error = expectFailure(.invalidFixture) { try Fixture(data: Data("[]".utf8)) }
    #expect(error?.file == nil)
    #expect(
      error?.description == #"The fixture cannot be used: it has no "format": "endpoint-fixture" "#
        + "field; is it a fixture file?")
  }

  @Test func invalidFixtureFileThatCannotBeReadCarriesTheReadError() throws {
    try withTemporaryFixture { file in
      let error = expectFailure(.invalidFixture) { try Fixture(contentsOf: file) }
      #expect(error?.file == file.path)
      #expect(error?.underlyingError != nil)
      #expect(error?.reason?.hasPrefix("it could not be read: ") == true)
      #expect(
        error?.description.hasPrefix(
          "The fixture \(file.path) cannot be used: it could not be read")
          == true)
    }
  }

  @Test func secretInFixture() async throws {
    try await withTemporaryFixture { file in
      let client = ReplayClient(
        fixture: file, recordingWith: FixedClient(body: "reg-secret-77"),
        secrets: ["reg-secret-77"], environment: [:])
      let error = await expectFailure(.secretInFixture) {
        try await client.send(request(.get, "https://x.test/note"))
      }
      #expect(error?.file == file.path)
      #expect(error?.secretNumber == 1)
      #expect(error?.secretForm == "as written")
      #expect(error?.secretLocation == "interaction 1 response")
      #expect(error?.secretDescription == "registered secret #1")
      #expect(
        error?.description == "Refusing to write \(file.path): registered secret #1 appears as "
          + "written in interaction 1 response. Redact the header, query parameter or JSON key "
          + "that carries it (Redaction.adding(headerNames:queryParameterNames:jsonKeys:)).")
    }
  }

  @Test func invalidRecordMode() {
    let error = expectFailure(.invalidRecordMode) {
      try RecordMode.resolve(environment: ["ENDPOINT_RECORD_MODE": "sometimes"])
    }
    #expect(error?.environmentValue == "sometimes")
    #expect(
      error?.description == "ENDPOINT_RECORD_MODE=sometimes is not a record mode; use one of: "
        + "replay, missing, new, all. replay: never use the network; missing: record the "
        + "fixture if its file is missing; new: record requests not in the fixture; all: record "
        + "everything again.")
  }

  @Test func recordedFailure() async throws {
    try await withTemporaryFixture { file in
      let server = StubClient()
      server.on(.get, "/down").fail(with: Timeout())
      let recorder = ReplayClient(fixture: file, recordingWith: server, environment: [:])
      await #expect(throws: Timeout.self) {
        try await recorder.send(request(.get, "https://x.test/down"))
      }
      let replayer = ReplayClient(fixture: file, recordingWith: NoNetworkClient(), environment: ci)
      let error = await expectFailure(.recordedFailure) {
        try await replayer.send(request(.get, "https://x.test/down"))
      }
      #expect(error?.recordedError == "Timeout()")
      #expect(error?.method == .get)
      #expect(error?.url?.absoluteString == "https://x.test/down")
      #expect(error?.description == "Timeout()")
    }
  }
}
