import Foundation
import Testing

@testable import EndpointTesting

@Suite struct HARTests {
  @Test func exportThenImportKeepsEveryInteraction() throws {
    let fixture = Fixture(interactions: [
      Fixture.Interaction(
        request: Fixture.Request(
          method: .post,
          url: try #require(URL(string: "https://x.test/a?b=1")),
          headerFields: try HTTPFields([("Content-Type", "application/json")]),
          body: Data(#"{"x":1}"#.utf8)
        ),
        response: Fixture.Response(
          status: 201,
          headerFields: try HTTPFields([
            ("Content-Type", "image/png"), ("X-Two", "1"), ("x-two", "2"),
          ]),
          body: Data([0, 255, 3])
        )
      ),
      Fixture.Interaction(
        request: Fixture.Request(
          method: .get, url: try #require(URL(string: "https://x.test/down"))),
        response: nil,
        error: "timed out"
      ),
    ])
    let har = fixture.har()
    let root = try #require(JSONSerialization.jsonObject(with: har) as? [String: Any])
    let log = try #require(root["log"] as? [String: Any])
    #expect(log["version"] as? String == "1.2")
    let entries = try #require(log["entries"] as? [[String: Any]])
    let content = try #require(
      (entries[0]["response"] as? [String: Any])?["content"] as? [String: Any])
    #expect(content["encoding"] as? String == "base64")
    let imported = try Fixture(har: har)
    #expect(imported.interactions == fixture.interactions)
  }

  @Test func anInteractionWhoseClientThrewReadsAsARecordedFailure() throws {
    let url = try #require(URL(string: "https://x.test/a"))
    let fixture = Fixture(interactions: [
      Fixture.Interaction(
        request: Fixture.Request(method: .get, url: url), response: nil, error: "timed out")
    ])
    let exchange = try #require(fixture.exchanges.first)
    #expect(exchange.request.url == url)
    #expect(exchange.response == nil)
    #expect(exchange.isComplete)
    let failure = try #require(exchange.error as? TestDoubleFailure)
    #expect(failure.kind == .recordedFailure)
    #expect(failure.recordedError == "timed out")
  }

  @Test func importsABrowserHAR() throws {
    let har = #"""
      {"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "120"}, "entries": [
        {"startedDateTime": "2024-01-01T00:00:00.000Z", "time": 12,
         "request": {"method": "GET", "url": "https://api.example.com/users/1", "httpVersion": "HTTP/2",
           "headers": [{"name": ":authority", "value": "api.example.com"}, {"name": "accept", "value": "application/json"}],
           "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
         "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
           "headers": [{"name": "content-type", "value": "application/json"}], "cookies": [],
           "content": {"size": 20, "mimeType": "application/json", "text": "{\"id\":1,\"name\":\"Ada\"}"},
           "redirectURL": "", "headersSize": -1, "bodySize": 20},
         "cache": {}, "timings": {"send": 0, "wait": 10, "receive": 2}}
      ]}}
      """#
    let fixture = try Fixture(har: Data(har.utf8))
    let exchange = try #require(fixture.exchanges.first)
    #expect(exchange.request.headerFields.map(\.name) == ["accept"])
    #expect(exchange.request.url.absoluteString == "https://api.example.com/users/1")
    #expect(exchange.response?.status == 200)
    #expect(exchange.responseBody == Data(#"{"id":1,"name":"Ada"}"#.utf8))
    #expect(exchange.error == nil)
  }

  @Test func importedHARReplaysThroughTheParser() async throws {
    let fixture = Fixture(interactions: [
      Fixture.Interaction(
        request: Fixture.Request(
          method: .get, url: try #require(URL(string: "https://api.example.com/v1/users/5"))),
        response: Fixture.Response(
          status: 200,
          headerFields: try HTTPFields([("Content-Type", "application/json")]),
          body: Data(#"{"id":5,"name":"Lin"}"#.utf8)
        )
      )
    ])
    try await withTemporaryFixture { file in
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Fixture(har: fixture.har()).encoded().write(to: file)
      let client = ReplayClient(
        fixture: file, recordingWith: NoNetworkClient(), environment: ["CI": "1"])
      #expect(try await client.call(userEndpoint(id: 5)) == User(id: 5, name: "Lin"))
    }
  }

  @Test func aStatusTheFixtureFormatRefusesIsRejectedSoImportsSaveAndReadBack() {
    for status in [99, 600, 991, -1] {
      let har =
        #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.example/"}, "#
        + #""response": {"status": \#(status), "headers": [], "content": {}}}]}}"#
      let error = expectFailure(.invalidFixture) { try Fixture(har: Data(har.utf8)) }
      #expect(error?.description.contains("no valid response status (\(status))") == true)
    }
  }

  @Test func anEmptyMethodIsRejectedSoImportsSaveAndReadBack() {
    let har =
      #"{"log": {"entries": [{"request": {"method": "", "url": "https://a.example/"}, "#
      + #""response": {"status": 200, "headers": [], "content": {}}}]}}"#
    let error = expectFailure(.invalidFixture) { try Fixture(har: Data(har.utf8)) }
    #expect(error?.description.contains("entry 1 has no request method and URL") == true)
  }

  @Test func invalidHARIsRejectedWithAReason() {
    let error = expectFailure(.invalidFixture) {
      try Fixture(har: Data(#"{"log": {}}"#.utf8))
    }
    #expect(
      error?.description == #"The fixture cannot be used: HAR: it has no "log.entries" array"#)
  }
}
