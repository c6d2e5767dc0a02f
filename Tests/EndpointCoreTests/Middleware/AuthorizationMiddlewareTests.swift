import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Issues `token-0`, then `token-N` after the N-th refresh; counts refreshes.
actor CountingTokens: TokenProvider {
  private(set) var current = "token-0"
  private(set) var refreshes = 0
  private(set) var tokenCalls = 0
  private let failure: (any Error)?

  init(failingWith failure: (any Error)? = nil) {
    self.failure = failure
  }

  func token() -> String {
    tokenCalls += 1
    return current
  }

  func refreshToken(rejected: String) async throws -> String {
    refreshes += 1
    // Give other rejected requests the chance to pile up behind this refresh.
    for _ in 0..<200 { await Task.yield() }
    if let failure { throw failure }
    current = "token-\(refreshes)"
    return current
  }
}

/// Accepts only `Bearer <accepted>`; everything else gets 401.
func tokenChecker(accepting accepted: String) -> ScriptedClient {
  ScriptedClient { request, _ in
    request.headerFields["Authorization"] == "Bearer \(accepted)"
      ? reply(200, body: "ok") : reply(401, body: "expired")
  }
}

@Suite struct AuthorizationMiddlewareTests {
  @Test func basicCredentialsAreBase64OfUserColonPassword() async throws {
    let stub = ScriptedClient(status: 200)
    let client = stub.with(
      AuthorizationMiddleware.basic(username: "anystring", password: "abc123-us6"))
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(
      stub.requests.first?.headerFields["Authorization"] == "Basic YW55c3RyaW5nOmFiYzEyMy11czY=")
  }

  @Test func bearerTokenIsSentWithItsScheme() async throws {
    let stub = ScriptedClient(status: 200)
    _ = try await stub.with(AuthorizationMiddleware.bearer("s3cr3t"))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(stub.requests.first?.headerFields.values(for: "authorization") == ["Bearer s3cr3t"])
  }

  @Test func requestWithItsOwnAuthorizationIsSentUnchanged() async throws {
    let stub = ScriptedClient(status: 200)
    let tokens = CountingTokens()
    var request = HTTPRequest(method: .post, url: testURL("https://auth.example.com/login"))
    try request.headerFields.append("Basic bG9naW4=", for: "Authorization")
    _ = try await stub.with(AuthorizationMiddleware(tokens: tokens)).send(request)
    #expect(stub.requests.first?.headerFields.values(for: "Authorization") == ["Basic bG9naW4="])
    #expect(await tokens.tokenCalls == 0)
  }

  @Test func tokenWithLineBreakIsRejectedWithoutBeingSent() async throws {
    let stub = ScriptedClient(status: 200)
    let client = stub.with(AuthorizationMiddleware.bearer("abc\r\nX-Injected: 1"))
    await expectInvalidRequest(.headerField) {
      _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    }
    #expect(stub.requests.isEmpty)
  }

  @Test func customSchemeIsPutBeforeTheToken() async throws {
    let stub = ScriptedClient(status: 200)
    let client = stub.with(AuthorizationMiddleware(scheme: "Token", tokens: CountingTokens()))
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(stub.requests.first?.headerFields["Authorization"] == "Token token-0")
  }

  @Test func unauthorizedRefreshesOnceAndRetriesWithTheNewToken() async throws {
    let stub = tokenChecker(accepting: "token-1")
    let tokens = CountingTokens()
    let (response, body) = try await stub.with(AuthorizationMiddleware(tokens: tokens))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 100) == Data("ok".utf8))
    #expect(await tokens.refreshes == 1)
    #expect(
      stub.requests.map { $0.headerFields["Authorization"] } == [
        "Bearer token-0", "Bearer token-1",
      ])
  }

  @Test func unauthorizedAfterTheRetryIsReturnedAsIs() async throws {
    let stub = ScriptedClient(status: 401, body: "still no")
    let tokens = CountingTokens()
    let (response, body) = try await stub.with(AuthorizationMiddleware(tokens: tokens))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 401)
    #expect(try await body.collect(upTo: 100) == Data("still no".utf8))
    #expect(stub.requests.count == 2)
    #expect(await tokens.refreshes == 1)
  }

  @Test func unauthorizedBodyIsReadBeforeTheRetry() async throws {
    let firstBody = RecordingChunks(["expired ", "token"])
    let stub = ScriptedClient { request, index in
      index == 0 ? (HTTPResponse(status: 401), firstBody.body) : reply(200)
    }
    _ = try await stub.with(AuthorizationMiddleware(tokens: CountingTokens()))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(firstBody.finished.value)
  }

  @Test func streamedBodyIsNotReplayedAfterUnauthorized() async throws {
    let stub = tokenChecker(accepting: "token-1")
    let tokens = CountingTokens()
    let upload = HTTPBody(RecordingChunks(["part"]), length: 4)
    let (response, body) = try await stub.with(AuthorizationMiddleware(tokens: tokens))
      .send(HTTPRequest(method: .put, url: testURL(), body: upload))
    #expect(response.status == 401)
    #expect(try await body.collect(upTo: 100) == Data("expired".utf8))
    #expect(stub.requests.count == 1)
    #expect(await tokens.refreshes == 0)
  }

  @Test func inMemoryBodyIsSentAgainAfterRefresh() async throws {
    let stub = tokenChecker(accepting: "token-1")
    let request = HTTPRequest(method: .post, url: testURL(), body: HTTPBody("payload"))
    let (response, _) = try await stub.with(AuthorizationMiddleware(tokens: CountingTokens()))
      .send(request)
    #expect(response.status == 200)
    #expect(stub.requests.map { $0.body?.data } == [Data("payload".utf8), Data("payload".utf8)])
  }

  @Test func fiftyConcurrentUnauthorizedRequestsShareOneRefresh() async throws {
    let arrivals = Barrier(count: 50)
    let stub = ScriptedClient { request, _ in
      guard request.headerFields["Authorization"] == "Bearer token-1" else {
        // Every request holds its 401 until all 50 were sent with the old token.
        await arrivals.arrive()
        return reply(401)
      }
      return reply(200, body: "ok")
    }
    let tokens = CountingTokens()
    let client = stub.with(AuthorizationMiddleware(tokens: tokens))
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<50 {
        group.addTask {
          let request = HTTPRequest(
            method: .get, url: testURL("https://api.example.com/n/\(index)"))
          return try await client.send(request).0.status
        }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: 200, count: 50))
    #expect(await tokens.refreshes == 1)
    let sent = stub.requests.map { $0.headerFields["Authorization"] ?? "" }
    #expect(sent.filter { $0 == "Bearer token-0" }.count == 50)
    #expect(sent.filter { $0 == "Bearer token-1" }.count == 50)
  }

  @Test func requestRejectedWithAnAlreadyReplacedTokenRetriesWithoutRefreshing() async throws {
    let slowArrived = Gate()
    let release = Gate()
    let stub = ScriptedClient { request, _ in
      if request.headerFields["Authorization"] == "Bearer token-1" { return reply(200) }
      if request.url.path == "/slow" {
        slowArrived.open()
        await release.wait()
      }
      return reply(401)
    }
    let tokens = CountingTokens()
    let client = stub.with(AuthorizationMiddleware(tokens: tokens))
    let slow = Task {
      try await client.send(HTTPRequest(method: .get, url: testURL("https://api.example.com/slow")))
    }
    await slowArrived.wait()
    let fast = try await client.send(
      HTTPRequest(method: .get, url: testURL("https://api.example.com/fast")))
    #expect(fast.0.status == 200)
    #expect(await tokens.refreshes == 1)
    release.open()
    #expect(try await slow.value.0.status == 200)
    #expect(await tokens.refreshes == 1)
    let slowAttempts = stub.requests.filter { $0.url.path == "/slow" }
    #expect(
      slowAttempts.map { $0.headerFields["Authorization"] } == ["Bearer token-0", "Bearer token-1"])
  }

  @Test func failedRefreshThrowsACredentialsFailureToEveryWaitingRequest() async throws {
    let arrivals = Barrier(count: 5)
    let stub = ScriptedClient { _, _ in
      await arrivals.arrive()
      return reply(401)
    }
    let tokens = CountingTokens(failingWith: TestError(name: "refresh token revoked"))
    let client = stub.with(AuthorizationMiddleware(tokens: tokens))
    let failures = await withTaskGroup(of: (any Error)?.self) { group in
      for _ in 0..<5 {
        group.addTask {
          do {
            _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
            return nil
          } catch {
            return error
          }
        }
      }
      return await group.reduce(into: [(any Error)?]()) { $0.append($1) }
    }
    #expect(failures.count == 5)
    for failure in failures {
      let error = try #require(failure as? InvalidRequest)
      #expect(error.kind == .credentials)
      #expect(error.underlyingError as? TestError == TestError(name: "refresh token revoked"))
      #expect(error.method == .get)
    }
    #expect(await tokens.refreshes == 1)
    #expect(stub.requests.count == 5)
  }

  @Test func refreshFailureDescriptionNamesTheRequestWithoutSecrets() async throws {
    let stub = ScriptedClient(status: 401)
    let tokens = CountingTokens(failingWith: TestError(name: "offline"))
    let client = stub.with(AuthorizationMiddleware(tokens: tokens))
    let error = await expectInvalidRequest(.credentials) {
      _ = try await client.send(
        HTTPRequest(method: .get, url: testURL("https://api.example.com/me?access_token=abc")))
    }
    let description = try #require(error?.description)
    #expect(
      description.hasPrefix(
        "GET https://api.example.com/me?access_token=<redacted> was answered 401 Unauthorized "
          + "and refreshing the access token failed: "))
    #expect(description.contains("offline"))
    #expect(!description.contains("abc"))
    #expect(!String(reflecting: try #require(error)).contains("abc"))
  }

  @Test func nextRejectionAfterAFailedRefreshTriesAgain() async throws {
    let stub = ScriptedClient(status: 401)
    let tokens = CountingTokens(failingWith: TestError(name: "down"))
    let client = stub.with(AuthorizationMiddleware(tokens: tokens))
    for _ in 0..<2 {
      await expectInvalidRequest(.credentials) {
        _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
      }
    }
    #expect(await tokens.refreshes == 2)
  }

  @Test func closureProviderIsAskedBeforeEveryRequestAndRefreshedOnUnauthorized() async throws {
    let current = Recorder("old")
    let refreshed = Recorder<[String]>([])
    let middleware = AuthorizationMiddleware.bearer(
      token: { current.value },
      refresh: { rejected in
        refreshed.update { $0.append(rejected) }
        current.update { $0 = "new" }
        return "new"
      }
    )
    let stub = tokenChecker(accepting: "new")
    let client = stub.with(middleware)
    #expect(try await client.send(HTTPRequest(method: .get, url: testURL())).0.status == 200)
    #expect(try await client.send(HTTPRequest(method: .get, url: testURL())).0.status == 200)
    #expect(refreshed.value == ["old"])
    #expect(
      stub.requests.map { $0.headerFields["Authorization"] } == [
        "Bearer old", "Bearer new", "Bearer new",
      ])
  }

  @Test func providerStillReturningTheReplacedTokenGetsTheNewOne() async throws {
    // This provider forgets to store the refreshed token.
    let middleware = AuthorizationMiddleware.bearer(token: { "stale" }, refresh: { _ in "fresh" })
    let stub = tokenChecker(accepting: "fresh")
    let client = stub.with(middleware)
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    _ = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(
      stub.requests.map { $0.headerFields["Authorization"] } == [
        "Bearer stale", "Bearer fresh", "Bearer fresh",
      ])
  }
}
