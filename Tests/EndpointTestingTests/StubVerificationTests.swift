import EndpointTesting
import Foundation
import Testing

@Suite struct StubVerificationTests {
  @Test func verifyPassesWhenEveryRuleWasUsedAsExpected() async throws {
    let stub = StubClient()
    stub.on(.get, "/a").reply(status: 200)
    stub.on(.get, "/b").reply(status: 200).times(2)
    stub.on(.get, "/c").reply(status: 200).optional()
    _ = try await stub.send(request(.get, "https://x.test/a"))
    _ = try await stub.send(request(.get, "https://x.test/b"))
    _ = try await stub.send(request(.get, "https://x.test/b"))
    try stub.verify()
  }

  @Test func verifyListsUnusedAndUnderusedRulesAndUnmatchedRequests() async throws {
    let stub = StubClient()
    stub.on(.get, "/never").reply(status: 200)
    stub.on(.get, "/twice").reply(status: 200).times(2)
    _ = try await stub.send(request(.get, "https://x.test/twice"))
    _ = try? await stub.send(request(.delete, "https://x.test/unknown"))
    let failure = expectFailure(.verificationFailed) { try stub.verify() }
    #expect(
      failure?.problems == [
        "rule #1 GET /never was never used",
        "rule #2 GET /twice was expected 2 times, answered 1",
        "no rule matched DELETE https://x.test/unknown",
      ]
    )
    #expect(failure?.description.contains("GET https://x.test/twice → 200 (rule #2)") == true)
  }

  @Test func requestsAreRecordedWithTheirOutcome() async throws {
    let stub = StubClient()
    let rule = stub.on(.post, "/todos").reply(status: 201)
    _ = try await stub.send(request(.post, "https://x.test/todos", body: "Milk"))
    _ = try? await stub.send(request(.get, "https://x.test/missing"))
    let requests = stub.requests
    #expect(requests.map(\.request.method) == [.post, .get])
    #expect(requests.map(\.status) == [201, nil])
    #expect(requests.map(\.isPending) == [false, false])
    #expect(requests.map(\.error) == [nil, nil])
    #expect(requests.map(\.rule) == [1, nil])
    #expect(requests[0].body == Data("Milk".utf8))
    #expect(rule.requests.count == 1)
    #expect(stub.rules.map(\.id) == [1])
  }

  @Test func copiesShareRulesAndLog() async throws {
    let stub = StubClient()
    let copy = stub
    copy.on(.get, "/shared").reply(status: 200)
    _ = try await stub.send(request(.get, "https://x.test/shared"))
    #expect(copy.requests.count == 1)
  }

  @Test func noMatchShowsRequestNearestRulesAndSuggestion() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/rates").query(["currency": "USD"]).reply(json: #"{"rate": 1}"#)
    stub.on(.post, "/orders").reply(status: 201)
    stub.on(.get, "/users/{id}").reply(status: 200)
    stub.on(.delete, "/x").reply(status: 200)
    let rates = try request(
      .get,
      "https://api.example.com/v1/rates?currency=EUR",
      headers: ["Authorization": "Bearer s3cret", "Accept": "application/json"]
    )
    let error = try #require(await expectFailure(.noMatchingStub) { try await stub.send(rates) })
    let text = error.description
    #expect(!text.contains("s3cret"))
    #expect(
      text.hasPrefix("No stub rule matches GET https://api.example.com/v1/rates?currency=EUR"))
    #expect(text.contains("  Authorization: <redacted>"))
    #expect(
      text.contains("✓ method ✓ origin ✓ path ✗ query: expected currency=USD, got currency=EUR")
    )
    #expect(error.nearestRules.count == 3)
    #expect(error.nearestRules[0].hasPrefix("#1 GET"))
    #expect(
      error.suggestedRule
        == #"stub.on(.get, "/rates").query(["currency": "EUR"]).reply(status: 200)"#)
  }

  @Test func suggestionIncludesJSONBodyAndCustomMethod() async throws {
    let stub = StubClient()
    let purge = try request("PURGE", "https://x.test/cache", body: #"{ "key" : "a" }"#)
    let error = try #require(await expectFailure(.noMatchingStub) { try await stub.send(purge) })
    #expect(
      error.suggestedRule
        == ##"stub.on("PURGE", "/cache").body(json: #"{"key":"a"}"#).reply(status: 200)"##
    )
    #expect(error.description.contains("No rules are set up."))
  }

  @Test func noMatchRedactsQueryCredentialsEverywhere() async throws {
    let stub = StubClient()
    stub.on(.get, "/data").query(["api_key": "right-key", "page": "1"]).reply(status: 200)
    let error = try #require(
      await expectFailure(.noMatchingStub) {
        try await stub.send(request(.get, "https://x.test/data?api_key=wrong-key&page=2"))
      })
    #expect(!error.description.contains("right-key"))
    #expect(!error.description.contains("wrong-key"))
    #expect(error.description.contains("api_key=<redacted>&page=2"))
    #expect(
      error.suggestedRule == #"stub.on(.get, "/data").query(["page": "2"]).reply(status: 200)"#)
  }
}
