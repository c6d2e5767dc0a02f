import EndpointCore
import EndpointPrimitives
import Foundation
import Synchronization
import Testing

/// Waits recorded instead of slept, so the suite stays fast; the server still sees every retry.
private final class Waits: Sendable {
  private let storage = Mutex<[Duration]>([])
  var recorded: [Duration] { storage.withVisibleLock { $0 } }
  var sleep: @Sendable (Duration) async throws -> Void { { delay in self.record(delay) } }
  private func record(_ delay: Duration) { storage.withVisibleLock { $0.append(delay) } }
}

/// The entries of a logging middleware.
private final class Entries: Sendable {
  private let storage = Mutex<[HTTPLogEntry]>([])
  var recorded: [HTTPLogEntry] { storage.withVisibleLock { $0 } }
  var logging: LoggingMiddleware { LoggingMiddleware(sink: { entry in self.record(entry) }) }
  private func record(_ entry: HTTPLogEntry) { storage.withVisibleLock { $0.append(entry) } }
}

/// The built-in middleware over each real transport, against httpbin and the fault
/// server.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct MiddlewareIntegrationTests {
  private func json(_ body: HTTPBody) async throws -> [String: Any] {
    let data = try await body.collect(upTo: 1 << 20)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func basicCredentialsPassHttpbinBasicAuth(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.httpbin.adding("/basic-auth/anystring/key-us6")
    let client = transport.with(
      AuthorizationMiddleware.basic(username: "anystring", password: "key-us6")
    )
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    let reply = try await json(body)
    #expect(reply["authenticated"] as? Bool == true)
    #expect(reply["user"] as? String == "anystring")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func wrongBasicCredentialsGetTheUnauthorizedResponse(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.httpbin.adding("/basic-auth/anystring/key-us6")
    let client = transport.with(
      AuthorizationMiddleware.basic(username: "anystring", password: "wrong")
    )
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 401)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func bearerTokenPassesHttpbinBearer(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.httpbin.adding("/bearer")
    let (response, body) = try await transport.with(AuthorizationMiddleware.bearer("tok-123"))
      .send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(try await json(body)["token"] as? String == "tok-123")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func unauthorizedIsRefreshedOnceThenReturned(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.fault.adding("/status/401")
    let refreshes = Mutex(0)
    let entries = Entries()
    let client = transport.with(
      AuthorizationMiddleware.bearer(
        token: { "old" },
        refresh: { _ in
          refreshes.withVisibleLock { $0 += 1 }
          return "new"
        }
      ),
      entries.logging
    )
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 401)
    #expect(refreshes.withVisibleLock { $0 } == 1)
    #expect(entries.recorded.map(\.status) == [401, 401])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func serviceUnavailableIsRetriedUntilAttemptsRunOut(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.httpbin.adding("/status/503")
    let waits = Waits()
    let entries = Entries()
    let client = transport.with(
      RetryMiddleware(
        policy: RetryPolicy(baseDelay: .seconds(1)),
        sleep: waits.sleep,
        random: { 0.5 }
      ),
      entries.logging
    )
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 503)
    #expect(entries.recorded.map(\.status) == [503, 503, 503])
    #expect(waits.recorded == [.milliseconds(500), .seconds(1)])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func tooManyRequestsHonoursRetryAfterSeconds(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.fault.adding("/status/429?retry_after=1")
    let waits = Waits()
    let client = transport.with(
      RetryMiddleware(policy: RetryPolicy(maxAttempts: 2), sleep: waits.sleep, random: { 0.5 })
    )
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 429)
    #expect(waits.recorded == [.seconds(1)])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func serviceUnavailableWithRetryAfterIsRetriedAfterThatWait(under: TransportUnderTest)
    async throws
  {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.fault.adding("/status/503?retry_after=2")
    let waits = Waits()
    let client = transport.with(
      RetryMiddleware(policy: RetryPolicy(maxAttempts: 2), sleep: waits.sleep, random: { 0.5 })
    )
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 503)
    #expect(waits.recorded == [.seconds(2)])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func flakyEndpointSucceedsOnTheThirdAttempt(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let key = UUID().uuidString
    let url = try TestServers.fault.adding("/flaky?key=\(key)&fail=2&status=503&retry_after=0")
    let waits = Waits()
    let client = transport.with(RetryMiddleware(sleep: waits.sleep, random: { 0.5 }))
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(try await json(body)["attempts"] as? Int == 3)
    #expect(waits.recorded == [.zero, .zero])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func flakyEndpointWaitsForRealWithTheDefaultSleep(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let key = UUID().uuidString
    let url = try TestServers.fault.adding("/flaky?key=\(key)&fail=1&status=429&retry_after=1")
    let (response, body) = try await transport.with(RetryMiddleware())
      .send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(try await json(body)["attempts"] as? Int == 2)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func postIsNotRetriedByDefault(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let key = UUID().uuidString
    let url = try TestServers.fault.adding("/flaky?key=\(key)&fail=1&status=503")
    let waits = Waits()
    let (response, _) = try await transport.with(RetryMiddleware(sleep: waits.sleep))
      .send(HTTPRequest(method: .post, url: url, body: HTTPBody("{}")))
    #expect(response.status == 503)
    #expect(waits.recorded.isEmpty)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func resetConnectionIsRetriedByTheDefaultPolicy(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.fault.adding("/reset")
    let entries = Entries()
    let client = transport.with(
      RetryMiddleware(sleep: Waits().sleep, random: { 0 }),
      entries.logging
    )
    let error = await failure { try await client.send(HTTPRequest(method: .get, url: url)) }
    under.expectConnectionFailure(try #require(error), url: url, transient: true)
    #expect(entries.recorded.count == 3)
    #expect(entries.recorded.allSatisfy { $0.status == nil })
  }

  @Test(arguments: TransportUnderTest.allCases)
  func idleTimeoutIsRetriedByTheDefaultPolicy(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient(idleTimeout: .milliseconds(200)))
    let url = try TestServers.fault.adding("/silent")
    let entries = Entries()
    let client = transport.with(
      RetryMiddleware(policy: RetryPolicy(maxAttempts: 2), sleep: Waits().sleep, random: { 0 }),
      entries.logging
    )
    let failure = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(failure?.kind == .idleTimeout)
    #expect(entries.recorded.count == 2)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func loggingCountsAStreamedBodyAsTheCallerReadsIt(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.httpbin.adding("/bytes/3000")
    let entries = Entries()
    let (_, body) = try await transport.with(entries.logging)
      .send(HTTPRequest(method: .get, url: url))
    let data = try await body.collect(upTo: 1 << 20)
    #expect(data.count == 3000)
    #expect(entries.recorded.map(\.bytes) == [3000])
    #expect(entries.recorded.map(\.failure) == [nil])
    #expect(entries.recorded.map(\.isAbandoned) == [false])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func defaultHeadersReachTheServer(under: TransportUnderTest) async throws {
    let transport = AnyClient(try under.makeClient())
    let url = try TestServers.httpbin.adding("/headers")
    let client = transport.with(try DefaultHeadersMiddleware(["User-Agent": "EndpointTests/1.0"]))
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    let headers = try #require(try await json(body)["headers"] as? [String: String])
    #expect(headers["User-Agent"] == "EndpointTests/1.0")
  }
}
