import EndpointCore
import EndpointPrimitives
import EndpointTesting
import Foundation
import Synchronization
import Testing

@Suite struct StubMatchingTests {
  @Test func templatePathCapturesParametersAndResponseGoesThroughTheParser() async throws {
    let stub = StubClient(baseURL: api)
    let seen = SeenParameters()
    stub.on(.get, "/users/{id}").reply { request in
      seen.set(request.pathParameters)
      return .json(User(id: Int(request.pathParameters["id"] ?? "") ?? 0, name: "Ada"))
    }
    let user = try await stub.call(userEndpoint(id: 42))
    #expect(user == User(id: 42, name: "Ada"))
    #expect(seen.value == ["id": "42"])
  }

  @Test func stubbedBodyThatDoesNotParseFailsWithTheParsersError() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/users/{id}").reply(json: #"{"id": "not a number"}"#)
    await #expect(throws: ParsingFailure.self) {
      try await stub.call(userEndpoint(id: 1))
    }
  }

  @Test func stubbedErrorStatusBecomesUnexpectedResponse() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/users/{id}").reply(status: 404, json: #"{"error": "no such user"}"#)
    let error = await #expect(throws: UnexpectedResponse.self) {
      try await stub.call(userEndpoint(id: 1))
    }
    #expect(error?.status == 404)
    let body = String(decoding: error?.body ?? Data(), as: UTF8.self)
    #expect(body.contains("no such user"))
  }

  @Test func exactPathDoesNotMatchLongerPath() async throws {
    let stub = StubClient()
    stub.on(.get, "/health").reply(text: "ok")
    let (_, body) = try await stub.send(request(.get, "https://x.test/health"))
    #expect(try await text(body) == "ok")
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/health/deep"))
    }
  }

  @Test func prefixMatchesWholeSegmentsOnly() async throws {
    let stub = StubClient()
    stub.on(.get, .prefix("/static")).reply(status: 204)
    #expect(try await stub.send(request(.get, "https://x.test/static/a/b.css")).0.status == 204)
    #expect(try await stub.send(request(.get, "https://x.test/static")).0.status == 204)
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/staticfiles"))
    }
  }

  @Test func templateSegmentsArePercentDecoded() async throws {
    let stub = StubClient()
    let seen = SeenParameters()
    stub.on(.get, "/files/{name}").reply { request in
      seen.set(request.pathParameters)
      return .status(200)
    }
    _ = try await stub.send(request(.get, "https://x.test/files/a%2Fb%20c"))
    #expect(seen.value == ["name": "a/b c"])
  }

  @Test func originInPatternMustMatch() async throws {
    let stub = StubClient()
    stub.on(.get, "https://cdn.example.com/logo.png").reply(status: 200)
    #expect(
      try await stub.send(request(.get, "https://cdn.example.com:443/logo.png")).0.status == 200)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://evil.example.com/logo.png"))
    }
    #expect(error?.description.contains("✗ origin: expected https://cdn.example.com") == true)
  }

  @Test func baseURLRestrictsRelativePathsToItsOriginAndPath() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/status").reply(status: 200)
    #expect(try await stub.send(request(.get, "https://api.example.com/v1/status")).0.status == 200)
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://api.example.com/status"))
    }
  }

  @Test func methodMustMatchAndAnyMethodMatchesAll() async throws {
    let stub = StubClient()
    stub.on(.post, "/a").reply(status: 201)
    stub.on("/b").reply(status: 202)
    #expect(try await stub.send(request(.post, "https://x.test/a")).0.status == 201)
    #expect(try await stub.send(request("PURGE", "https://x.test/b")).0.status == 202)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/a"))
    }
    let nearest = try #require(error?.nearestRules.first)
    #expect(nearest.contains("✗ method"))
    #expect(nearest.components(separatedBy: "✗").count == 2)
  }

  @Test func querySubsetIgnoresOrderAndExtraItems() async throws {
    let stub = StubClient()
    stub.on(.get, "/rates").query(["currency": "USD", "day": "mon"]).reply(status: 200)
    let response = try await stub.send(
      request(.get, "https://x.test/rates?day=mon&page=2&currency=USD")
    )
    #expect(response.0.status == 200)
  }

  @Test func queryInPatternLiteralIsRequired() async throws {
    let stub = StubClient()
    stub.on(.get, "/search?q=swift%20http").reply(status: 200)
    #expect(
      try await stub.send(request(.get, "https://x.test/search?q=swift%20http")).0.status == 200)
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/search?q=rust"))
    }
  }

  @Test func exactQueryRejectsExtraItems() async throws {
    let stub = StubClient()
    stub.on(.get, "/rates").query(exactly: ["b": "2", "a": "1"]).reply(status: 200)
    #expect(try await stub.send(request(.get, "https://x.test/rates?a=1&b=2")).0.status == 200)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/rates?a=1&b=2&c=3"))
    }
    #expect(
      error?.description.contains("✗ query (exact): expected b=2&a=1, got a=1&b=2&c=3") == true
    )
  }

  @Test func queryItemsBuiltAtRunTimeMatchAsLiteralsDo() async throws {
    let stub = StubClient()
    let tags = ["swift", "http"].map { URLQueryItem(name: "tag", value: $0) }
    stub.on(.get, "/posts").query(tags).reply(status: 200)
    stub.on(.get, "/rates").query(exactly: [URLQueryItem(name: "a", value: "1")]).reply(status: 201)
    #expect(
      try await stub.send(request(.get, "https://x.test/posts?tag=http&tag=swift&n=3")).0.status
        == 200)
    #expect(try await stub.send(request(.get, "https://x.test/rates?a=1")).0.status == 201)
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/posts?tag=swift"))
    }
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/rates?a=1&b=2"))
    }
  }

  @Test func exactURLMatchesQueryInAnyOrder() async throws {
    let stub = StubClient()
    let url = try #require(URL(string: "https://x.test/p?a=1&b=2"))
    stub.on(.get, url: url).reply(status: 200)
    #expect(try await stub.send(request(.get, "https://x.test/p?b=2&a=1")).0.status == 200)
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/p?b=2"))
    }
  }

  @Test func headerNamesAreCaseInsensitive() async throws {
    let stub = StubClient()
    stub.on(.get, "/h").header("x-api-version", "2").reply(status: 200)
    let ok = try await stub.send(request(.get, "https://x.test/h", headers: ["X-API-Version": "2"]))
    #expect(ok.0.status == 200)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/h", headers: ["X-Api-Version": "1"]))
    }
    #expect(error?.description.contains("✗ header x-api-version: expected 2, got 1") == true)
  }

  @Test func credentialHeaderMismatchNeverShowsTheValues() async throws {
    let stub = StubClient()
    stub.on(.get, "/me").header("Authorization", "Bearer right-token").reply(status: 200)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(
        request(.get, "https://x.test/me", headers: ["Authorization": "Bearer wrong-token"])
      )
    }
    let description = try #require(error?.description)
    #expect(!description.contains("right-token"))
    #expect(!description.contains("wrong-token"))
    #expect(description.contains("Authorization: <redacted>"))
    #expect(description.contains("✗ header Authorization"))
  }

  @Test func bodyBytesAndTextMatchExactly() async throws {
    let stub = StubClient()
    stub.on(.post, "/bytes").body(Data([1, 2, 3])).reply(status: 201)
    stub.on(.post, "/text").body(text: "hello").reply(status: 202)
    var bytes = try request(.post, "https://x.test/bytes")
    bytes.body = HTTPBody(Data([1, 2, 3]))
    #expect(try await stub.send(bytes).0.status == 201)
    #expect(
      try await stub.send(request(.post, "https://x.test/text", body: "hello")).0.status == 202)
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.post, "https://x.test/text", body: "hello!"))
    }
  }

  @Test func jsonBodyMatchesByMeaning() async throws {
    let stub = StubClient()
    stub.on(.post, "/todos").body(json: #"{"title": "Milk", "n": 1, "tags": ["a"]}"#).reply(
      status: 201)
    let sent = #"{"tags":["a"],"n":1.0,"title":"Milk"}"#
    #expect(try await stub.send(request(.post, "https://x.test/todos", body: sent)).0.status == 201)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(
        request(.post, "https://x.test/todos", body: #"{"title":"Eggs","n":1,"tags":["a"]}"#))
    }
    #expect(error?.description.contains("✗ body (JSON): expected") == true)
  }

  @Test func encodableBodyMatchesByMeaning() async throws {
    let stub = StubClient()
    stub.on(.put, "/users/1").body(json: User(id: 1, name: "Ada")).reply(status: 200)
    let sent = #"{"name": "Ada", "id": 1}"#
    #expect(
      try await stub.send(request(.put, "https://x.test/users/1", body: sent)).0.status == 200)
  }

  @Test func streamedRequestBodyIsReadForMatching() async throws {
    let stub = StubClient()
    stub.on(.post, "/upload").body(text: "abcdef").reply(status: 200)
    var upload = try request(.post, "https://x.test/upload")
    upload.body = HTTPBody(
      AsyncStream { continuation in
        continuation.yield(Data("abc".utf8))
        continuation.yield(Data("def".utf8))
        continuation.finish()
      }
    )
    #expect(try await stub.send(upload).0.status == 200)
    #expect(stub.requests.first?.body == Data("abcdef".utf8))
  }

  @Test func customPredicateIsNamedInMismatches() async throws {
    let stub = StubClient()
    stub.on(.get, .any).matching("has a trace id") { $0.headerFields.contains("X-Trace-ID") }
      .reply(status: 204)
    let traced = try request(.get, "https://x.test/anything", headers: ["X-Trace-ID": "t1"])
    #expect(try await stub.send(traced).0.status == 204)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/anything"))
    }
    #expect(error?.description.contains("✗ has a trace id: the predicate returned false") == true)
  }

  @Test func firstMatchingRuleWins() async throws {
    let stub = StubClient()
    stub.on(.get, "/x").reply(status: 201)
    stub.on(.get, "/x").reply(status: 202)
    #expect(try await stub.send(request(.get, "https://x.test/x")).0.status == 201)
  }
}

final class SeenParameters: Sendable {
  private let storage = Mutex<[String: String]>([:])
  func set(_ value: [String: String]) { storage.withVisibleLock { $0 = value } }
  var value: [String: String] { storage.withVisibleLock { $0 } }
}
