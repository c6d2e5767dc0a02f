import EndpointCore
import EndpointTestSupport
import Testing

@Suite struct DefaultHeadersMiddlewareTests {
  @Test func missingFieldsAreAddedAndPresentOnesKept() async throws {
    let stub = ScriptedClient(status: 200)
    let defaults = try DefaultHeadersMiddleware([
      "User-Agent": "MyApp/1.0", "Accept-Language": "en-GB, en;q=0.8",
    ])
    var request = HTTPRequest(method: .get, url: testURL())
    try request.headerFields.append("Custom/2.0", for: "user-agent")
    _ = try await stub.with(defaults).send(request)
    let sent = try #require(stub.requests.first).headerFields
    #expect(sent.values(for: "User-Agent") == ["Custom/2.0"])
    #expect(sent.values(for: "Accept-Language") == ["en-GB, en;q=0.8"])
  }

  @Test func repeatedDefaultFieldsAreAllAddedInOrder() async throws {
    let stub = ScriptedClient(status: 200)
    let fields = try HTTPFields([("X-Feature", "a"), ("X-Feature", "b"), ("X-Client", "c")])
    _ = try await stub.with(DefaultHeadersMiddleware(fields))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(
      stub.requests.first?.headerFields.map(\.description) == [
        "X-Feature: a", "X-Feature: b", "X-Client: c",
      ])
  }

  @Test func invalidDefaultIsRejectedByName() {
    let error = expectInvalidRequest(.headerField) {
      try DefaultHeadersMiddleware(["User Agent": "x"])
    }
    #expect(error?.fieldName == "User Agent")
    #expect(error?.description.hasPrefix("Invalid header field name \"User Agent\"") == true)
  }
}
