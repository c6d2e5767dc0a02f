import Foundation
import Testing

@testable import EndpointTesting

@Suite struct SecretCheckTests {
  @Test func aJSONWebTokenIsRefusedWhateverCarriesIt() async throws {
    try await withTemporaryFixture { file in
      let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLTEyMw"
      let client = ReplayClient(fixture: file, recordingWith: FixedClient(), environment: [:])
      let error = await expectFailure(.secretInFixture) {
        try await client.send(request(.get, "https://x.test/sessions/\(jwt)"))
      }
      #expect(error?.secretDescription == "a JSON Web Token")
      #expect(error?.description.contains(jwt) == false)
      #expect(!FileManager.default.fileExists(atPath: file.path))
    }
  }

  @Test func aValueRedactedEarlierIsRefusedWhereverItReappears() async throws {
    try await withTemporaryFixture { file in
      let server = FixedClient(
        headers: ["Content-Type": "application/json"], body: #"{"access_token": "tok-456789"}"#)
      let client = ReplayClient(fixture: file, recordingWith: server, environment: [:])
      _ = try await client.send(request(.post, "https://x.test/login"))
      let error = await expectFailure(.secretInFixture) {
        try await client.send(request(.get, "https://x.test/files/tok-456789"))
      }
      #expect(error?.secretLocation == "interaction 2 request")
      #expect(error?.secretDescription == "the value of a field redacted earlier in this recording")
      #expect(try ReplayClient.exchanges(inFixture: file).count == 1)
    }
  }

  @Test func aRegisteredSecretInsideAGzipBodyIsFound() async throws {
    try await withTemporaryFixture { file in
      let server = DataClient(
        headers: ["Content-Type": "application/octet-stream"], body: GzipSamples.registeredSecret)
      let client = ReplayClient(
        fixture: file, recordingWith: server,
        secrets: ["reg-secret-77"], environment: [:])
      let error = await expectFailure(.secretInFixture) {
        try await client.send(request(.get, "https://x.test/archive"))
      }
      #expect(error?.secretNumber == 1)
      #expect(error?.secretLocation == "interaction 1 response")
    }
  }

  @Test func aRegisteredSecretWrittenWithJSONEscapesIsFound() async throws {
    try await withTemporaryFixture { file in
      let server = FixedClient(
        headers: ["Content-Type": "text/plain"], body: #"{"note":"reg\u002dsecret\u002d88"}"#)
      let client = ReplayClient(
        fixture: file, recordingWith: server,
        secrets: ["reg-secret-88"], environment: [:])
      let error = await expectFailure(.secretInFixture) {
        try await client.send(request(.get, "https://x.test/note"))
      }
      #expect(error?.secretNumber == 1)
      #expect(error?.secretLocation == "interaction 1 response")
    }
  }

  @Test func aHARFromABrowserIsRedactedByTheSameRule() throws {
    let har = Data(
      #"""
      {"log": {"version": "1.2", "entries": [{
        "request": {"method": "GET", "url": "https://x.test/a?access_token=har-secret-1",
          "headers": [{"name": "Cookie", "value": "sid=har-secret-2"}]},
        "response": {"status": 200, "headers": [],
          "content": {"mimeType": "application/json", "text": "{\"id_token\": \"har-secret-3\"}"}}
      }]}}
      """#.utf8)
    let fixture = try ReplayClient.fixture(fromHAR: har)
    let text = String(decoding: try Fixture(data: fixture).har() + fixture, as: UTF8.self)
    #expect(!text.contains("har-secret"))
  }
}
