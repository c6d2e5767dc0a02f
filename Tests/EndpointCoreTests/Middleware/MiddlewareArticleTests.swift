import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The examples of the Middleware article, over a stub client instead of the URLSession
// transport, so they keep compiling and doing what the article says.

actor ArticleSession: TokenProvider {
  private var accessToken: String
  private let refreshToken: String
  private let auth: any HTTPClient

  init(accessToken: String, refreshToken: String, auth: any HTTPClient) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.auth = auth
  }

  func token() async throws -> String { accessToken }

  func refreshToken(rejected: String) async throws -> String {
    let endpoint = Endpoint<String>(
      .post,
      url: testURL("https://auth.example.com/token"),
      payload: .formURLEncoded(["grant_type": "refresh_token", "refresh_token": refreshToken]),
      parser: .string
    )
    accessToken = try await auth.call(endpoint)
    return accessToken
  }
}

actor ArticleWaits {
  var delays: [Duration] = []
  func record(_ delay: Duration) { delays.append(delay) }
}

@Suite struct MiddlewareArticleTests {
  @Test func recommendedOrderAddsHeadersRetriesAuthorizesAndLogsEachAttempt() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let transport = ScriptedClient { _, index in reply(index == 0 ? 503 : 200) }
    let api = transport.with(
      try DefaultHeadersMiddleware(["User-Agent": "MyApp/2.1"]),
      RetryMiddleware(sleep: { _ in }),
      AuthorizationMiddleware.bearer("token"),
      LoggingMiddleware(sink: { entry in entries.update { $0.append(entry) } })
    )
    let (response, _) = try await api.send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(entries.value.count == 2)
    #expect(transport.requests.allSatisfy { $0.headerFields["User-Agent"] == "MyApp/2.1" })
    #expect(transport.requests.allSatisfy { $0.headerFields["Authorization"] == "Bearer token" })
  }

  @Test func sessionProviderRefreshesThroughItsOwnClient() async throws {
    let auth = ScriptedClient { request, _ in
      let form = String(decoding: request.body?.data ?? Data(), as: UTF8.self)
      return form.contains("refresh_token=r1") ? reply(200, body: "a2") : reply(400)
    }
    let transport = tokenChecker(accepting: "a2")
    let session = ArticleSession(accessToken: "a1", refreshToken: "r1", auth: auth)
    let api = transport.with(AuthorizationMiddleware(tokens: session))
    let (response, _) = try await api.send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(auth.requests.count == 1)
    #expect(try await session.token() == "a2")
  }

  @Test func injectedWaitsAreExact() async throws {
    let waits = ArticleWaits()
    let retry = RetryMiddleware(
      policy: RetryPolicy(baseDelay: .seconds(1)),
      sleep: { delay in await waits.record(delay) },
      random: { 0.5 }
    )
    _ = try await ScriptedClient(status: 503).with(retry).send(
      HTTPRequest(method: .get, url: testURL()))
    #expect(await waits.delays == [.milliseconds(500), .seconds(1)])
  }

  @Test func widenedPolicyRetriesPostAndNamedErrors() async throws {
    var policy = RetryPolicy()
    policy.methods.insert(.post)
    policy.retriesError = { error in
      RetryPolicy.isTransientFailure(error) || error is TestError
    }
    let transport = ScriptedClient { _, index in
      if index == 0 { throw TestError(name: "gateway") }
      return reply(201)
    }
    let (response, _) = try await transport.with(RetryMiddleware(policy: policy, sleep: { _ in }))
      .send(HTTPRequest(method: .post, url: testURL(), body: HTTPBody("{}")))
    #expect(response.status == 201)
  }

  @Test func requestIDMiddlewareSetsAFreshIdentifier() async throws {
    let requestID = ClosureMiddleware { request, next in
      var request = request
      try request.headerFields.set(UUID().uuidString, for: "X-Request-ID")
      return try await next(request)
    }
    let transport = ScriptedClient(status: 200)
    let api = transport.with(requestID)
    _ = try await api.send(HTTPRequest(method: .get, url: testURL()))
    _ = try await api.send(HTTPRequest(method: .get, url: testURL()))
    let identifiers = transport.requests.compactMap { $0.headerFields["X-Request-ID"] }
    #expect(identifiers.count == 2)
    #expect(Set(identifiers).count == 2)
  }
}
