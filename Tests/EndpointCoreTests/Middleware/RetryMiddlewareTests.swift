import EndpointCore
import EndpointPrimitives
import Synchronization
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A failure of the kind a transport reports for a lost connection, transient or not.
func fakeTransportFailure(isTransient: Bool) -> TransportFailure {
  TransportFailure(.connectionLost, message: "a fake failure", isTransient: isTransient)
}

/// A retry middleware that records its waits instead of sleeping, with jitter fixed at `random`.
func retry(
  _ policy: RetryPolicy = RetryPolicy(baseDelay: .seconds(1)),
  random: Double = 0.5,
  now: Date = Date(timeIntervalSince1970: 784_111_777),
  sleeps: SleepRecorder
) -> RetryMiddleware {
  RetryMiddleware(policy: policy, sleep: sleeps.sleep, random: { random }, now: { now })
}

@Suite struct RetryMiddlewareTests {
  @Test func waitsGrowExponentiallyWithFullJitterAndTheLastResponseIsReturned() async throws {
    let stub = ScriptedClient(status: 503, body: "down")
    let sleeps = SleepRecorder()
    let client = stub.with(
      retry(RetryPolicy(maxAttempts: 4, baseDelay: .seconds(1)), sleeps: sleeps))
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 503)
    #expect(try await body.collect(upTo: 100) == Data("down".utf8))
    #expect(stub.requests.count == 4)
    #expect(sleeps.delays == [.milliseconds(500), .seconds(1), .seconds(2)])
  }

  @Test func successAfterFailuresStopsRetrying() async throws {
    let stub = ScriptedClient { _, index in
      index < 2 ? reply([503, 502][index]) : reply(200, body: "ok")
    }
    let sleeps = SleepRecorder()
    let (response, _) = try await stub.with(retry(sleeps: sleeps))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(stub.requests.count == 3)
    #expect(sleeps.delays == [.milliseconds(500), .seconds(1)])
  }

  @Test func waitIsCappedByMaxDelay() async throws {
    let stub = ScriptedClient(status: 500)
    let sleeps = SleepRecorder()
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(1), maxDelay: .seconds(3))
    _ = try await stub.with(retry(policy, random: 1, sleeps: sleeps))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(sleeps.delays == [.seconds(1), .seconds(2), .seconds(3), .seconds(3)])
  }

  @Test func backoffDrawsBelowADoublingCeilingAndNeverOverflows() {
    let policy = RetryPolicy(baseDelay: .seconds(2), maxDelay: .seconds(60))
    #expect(policy.backoff(beforeRetry: 1, random: 0.25) == .milliseconds(500))
    #expect(policy.backoff(beforeRetry: 2, random: 0.25) == .seconds(1))
    #expect(policy.backoff(beforeRetry: 3, random: 0.25) == .seconds(2))
    #expect(policy.backoff(beforeRetry: 3, random: 0) == .zero)
    #expect(policy.backoff(beforeRetry: 10_000, random: 0.5) == .seconds(30))
    #expect(policy.backoff(beforeRetry: 1, random: 7) == .seconds(2))
    #expect(policy.backoff(beforeRetry: 1, random: -1) == .zero)
  }

  @Test(arguments: [408, 429, 500, 502, 503, 504])
  func transientStatusIsRetried(status: Int) async throws {
    let stub = ScriptedClient { _, index in reply(index == 0 ? status : 200) }
    let (response, _) = try await stub.with(retry(sleeps: SleepRecorder()))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(stub.requests.count == 2)
  }

  @Test(arguments: [200, 400, 401, 403, 404, 409, 422, 501])
  func otherStatusIsNotRetried(status: Int) async throws {
    let stub = ScriptedClient(status: status)
    let sleeps = SleepRecorder()
    let (response, _) = try await stub.with(retry(sleeps: sleeps))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == status)
    #expect(stub.requests.count == 1)
    #expect(sleeps.delays.isEmpty)
  }

  @Test(arguments: [HTTPMethod.get, .head, .put, .delete, .options])
  func idempotentMethodIsRetried(method: HTTPMethod) async throws {
    let stub = ScriptedClient(status: 503)
    _ = try await stub.with(retry(sleeps: SleepRecorder()))
      .send(HTTPRequest(method: method, url: testURL()))
    #expect(stub.requests.count == 3)
  }

  @Test(arguments: [HTTPMethod.post, .patch, "PURGE"])
  func otherMethodIsNotRetriedByDefault(method: HTTPMethod) async throws {
    let stub = ScriptedClient(status: 503)
    _ = try await stub.with(retry(sleeps: SleepRecorder()))
      .send(HTTPRequest(method: method, url: testURL(), body: HTTPBody("{}")))
    #expect(stub.requests.count == 1)
  }

  @Test func postIsRetriedWhenThePolicyAllowsIt() async throws {
    let stub = ScriptedClient(status: 503)
    var policy = RetryPolicy()
    policy.methods.insert(.post)
    _ = try await stub.with(retry(policy, sleeps: SleepRecorder()))
      .send(HTTPRequest(method: .post, url: testURL(), body: HTTPBody("{}")))
    #expect(stub.requests.map { $0.body?.data } == Array(repeating: Data("{}".utf8), count: 3))
  }

  @Test func streamedBodyIsNeverRetried() async throws {
    let stub = ScriptedClient(status: 503)
    let sleeps = SleepRecorder()
    let upload = HTTPBody(RecordingChunks(["a", "b"]), length: 2)
    let (response, _) = try await stub.with(retry(sleeps: sleeps))
      .send(HTTPRequest(method: .put, url: testURL(), body: upload))
    #expect(response.status == 503)
    #expect(stub.requests.count == 1)
    #expect(sleeps.delays.isEmpty)
  }

  @Test func transientTransportFailureIsRetried() async throws {
    let stub = ScriptedClient { _, index in
      if index < 2 { throw fakeTransportFailure(isTransient: true) }
      return reply(200)
    }
    let sleeps = SleepRecorder()
    let (response, _) = try await stub.with(retry(sleeps: sleeps))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(sleeps.delays == [.milliseconds(500), .seconds(1)])
  }

  @Test func lastTransportFailureIsThrownWhenAttemptsRunOut() async throws {
    let stub = ScriptedClient { _, _ in throw fakeTransportFailure(isTransient: true) }
    await #expect(throws: fakeTransportFailure(isTransient: true)) {
      _ = try await stub.with(retry(sleeps: SleepRecorder()))
        .send(HTTPRequest(method: .get, url: testURL()))
    }
    #expect(stub.requests.count == 3)
  }

  @Test func permanentTransportFailureIsNotRetried() async throws {
    let stub = ScriptedClient { _, _ in throw fakeTransportFailure(isTransient: false) }
    await #expect(throws: fakeTransportFailure(isTransient: false)) {
      _ = try await stub.with(retry(sleeps: SleepRecorder()))
        .send(HTTPRequest(method: .get, url: testURL()))
    }
    #expect(stub.requests.count == 1)
  }

  @Test func unknownErrorIsNotRetriedUnlessThePolicySaysSo() async throws {
    let stub = ScriptedClient { _, _ in throw TestError(name: "gateway") }
    await #expect(throws: TestError(name: "gateway")) {
      _ = try await stub.with(retry(sleeps: SleepRecorder()))
        .send(HTTPRequest(method: .get, url: testURL()))
    }
    #expect(stub.requests.count == 1)

    var policy = RetryPolicy()
    policy.retriesError = { RetryPolicy.isTransientFailure($0) || $0 is TestError }
    let extended = ScriptedClient { _, _ in throw TestError(name: "gateway") }
    await #expect(throws: TestError(name: "gateway")) {
      _ = try await extended.with(retry(policy, sleeps: SleepRecorder()))
        .send(HTTPRequest(method: .get, url: testURL()))
    }
    #expect(extended.requests.count == 3)
  }

  @Test func cancellationErrorIsNeverRetried() async throws {
    let stub = ScriptedClient { _, _ in throw CancellationError() }
    var policy = RetryPolicy()
    policy.retriesError = { _ in true }
    await #expect(throws: CancellationError.self) {
      _ = try await stub.with(retry(policy, sleeps: SleepRecorder()))
        .send(HTTPRequest(method: .get, url: testURL()))
    }
    #expect(stub.requests.count == 1)
  }

  @Test func cancelledTaskGetsTheFailedResponseWithoutRetry() async throws {
    let stub = ScriptedClient { _, _ in
      withUnsafeCurrentTask { $0?.cancel() }
      return reply(503)
    }
    let sleeps = SleepRecorder()
    let client = stub.with(retry(sleeps: sleeps))
    let status = try await Task {
      try await client.send(HTTPRequest(method: .get, url: testURL())).0.status
    }.value
    #expect(status == 503)
    #expect(stub.requests.count == 1)
    #expect(sleeps.delays.isEmpty)
  }

  @Test func cancelledTaskRethrowsTheTransportFailureWithoutRetry() async throws {
    let stub = ScriptedClient { _, _ in
      withUnsafeCurrentTask { $0?.cancel() }
      throw fakeTransportFailure(isTransient: true)
    }
    let client = stub.with(retry(sleeps: SleepRecorder()))
    let task = Task { try await client.send(HTTPRequest(method: .get, url: testURL())) }
    await #expect(throws: fakeTransportFailure(isTransient: true)) { _ = try await task.value }
    #expect(stub.requests.count == 1)
  }

  @Test func cancellationDuringTheWaitStopsRetrying() async throws {
    let stub = ScriptedClient(status: 503)
    let sleeper: @Sendable (Duration) async throws -> Void = { _ in
      withUnsafeCurrentTask { $0?.cancel() }
    }
    let client = stub.with(RetryMiddleware(sleep: sleeper, random: { 0.5 }))
    let task = Task { try await client.send(HTTPRequest(method: .get, url: testURL())) }
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    #expect(stub.requests.count == 1)
  }

  @Test func retryAfterSecondsReplacesTheBackoff() async throws {
    let stub = ScriptedClient { _, index in
      index == 0 ? reply(429, headers: [("Retry-After", "7")]) : reply(200)
    }
    let sleeps = SleepRecorder()
    _ = try await stub.with(retry(sleeps: sleeps)).send(HTTPRequest(method: .get, url: testURL()))
    #expect(sleeps.delays == [.seconds(7)])
  }

  @Test func retryAfterDateIsMeasuredFromNow() async throws {
    let stub = ScriptedClient { _, index in
      index == 0
        ? reply(503, headers: [("Retry-After", "Sun, 06 Nov 1994 08:49:57 GMT")]) : reply(200)
    }
    let sleeps = SleepRecorder()
    // `now` is Sun, 06 Nov 1994 08:49:37 GMT.
    _ = try await stub.with(retry(now: Date(timeIntervalSince1970: 784_111_777), sleeps: sleeps))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(sleeps.delays == [.seconds(20)])
  }

  @Test func retryAfterDateInThePastMeansNoWait() async throws {
    let stub = ScriptedClient { _, index in
      index == 0
        ? reply(503, headers: [("Retry-After", "Sat, 05 Nov 1994 08:49:37 GMT")]) : reply(200)
    }
    let sleeps = SleepRecorder()
    _ = try await stub.with(retry(sleeps: sleeps)).send(HTTPRequest(method: .get, url: testURL()))
    #expect(sleeps.delays == [.zero])
  }

  @Test func retryAfterLongerThanMaxDelayReturnsTheResponse() async throws {
    let stub = ScriptedClient { _, index in
      index == 0 ? reply(429, headers: [("Retry-After", "3600")]) : reply(200)
    }
    let sleeps = SleepRecorder()
    let policy = RetryPolicy(maxDelay: .seconds(30))
    let (response, _) = try await stub.with(retry(policy, sleeps: sleeps)).send(
      HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 429)
    #expect(sleeps.delays.isEmpty)
    #expect(stub.requests.count == 1)
  }

  @Test func retryAfterEqualToMaxDelayIsWaited() async throws {
    let stub = ScriptedClient { _, index in
      index == 0 ? reply(429, headers: [("Retry-After", "30")]) : reply(200)
    }
    let sleeps = SleepRecorder()
    let policy = RetryPolicy(maxDelay: .seconds(30))
    let (response, _) = try await stub.with(retry(policy, sleeps: sleeps)).send(
      HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(sleeps.delays == [.seconds(30)])
  }

  @Test func unreadableRetryAfterFallsBackToBackoff() async throws {
    let stub = ScriptedClient { _, index in
      index == 0 ? reply(503, headers: [("Retry-After", "soon")]) : reply(200)
    }
    let sleeps = SleepRecorder()
    _ = try await stub.with(retry(sleeps: sleeps)).send(HTTPRequest(method: .get, url: testURL()))
    #expect(sleeps.delays == [.milliseconds(500)])
  }

  @Test func failedResponseBodyIsReadBeforeRetrying() async throws {
    let failedBody = RecordingChunks(["service ", "unavailable"])
    let stub = ScriptedClient { _, index in
      index == 0 ? (HTTPResponse(status: 503), failedBody.body) : reply(200)
    }
    _ = try await stub.with(retry(sleeps: SleepRecorder()))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(failedBody.finished.value)
  }

  @Test func decodingFailureIsNotRetried() async throws {
    let stub = ScriptedClient(status: 200, body: "not a number")
    let endpoint = Endpoint<Int>(
      .get, url: testURL(),
      parser: ResponseParser { _, body in
        throw TestError(name: "decoding \(body.count) bytes")
      })
    await #expect(throws: TestError(name: "decoding 12 bytes")) {
      _ = try await stub.with(retry(sleeps: SleepRecorder())).call(endpoint)
    }
    #expect(stub.requests.count == 1)
  }

  @Test func attemptsBelowOneMeanASingleAttempt() async throws {
    let stub = ScriptedClient(status: 503)
    _ = try await stub.with(retry(RetryPolicy(maxAttempts: 0), sleeps: SleepRecorder()))
      .send(HTTPRequest(method: .get, url: testURL()))
    #expect(stub.requests.count == 1)
  }

  @Test func clockInitialiserSleepsOnTheClock() async throws {
    let stub = ScriptedClient { _, index in reply(index == 0 ? 503 : 200) }
    let policy = RetryPolicy(baseDelay: .zero)
    let (response, _) = try await stub.with(
      RetryMiddleware(policy: policy, clock: ContinuousClock())
    )
    .send(HTTPRequest(method: .get, url: testURL()))
    #expect(response.status == 200)
    #expect(stub.requests.count == 2)
  }
}

/// A request's timeout is the whole exchange's, retries and waits included.
@Suite struct RetryDeadlineTests {
  /// A clock the test moves: each attempt and each wait advance it.
  final class FakeTime: Sendable {
    private let seconds = Mutex(0.0)
    var now: Date { Date(timeIntervalSince1970: seconds.withVisibleLock { $0 }) }
    func advance(by duration: Duration) {
      let (whole, atto) = duration.components
      seconds.withVisibleLock { $0 += Double(whole) + Double(atto) / 1e18 }
    }
  }

  @Test func eachAttemptGetsWhatIsLeftAndNoRetryOutlivesTheTimeout() async throws {
    let time = FakeTime()
    let stub = ScriptedClient { _, _ in
      time.advance(by: .milliseconds(150))  // each attempt takes 150 ms
      return reply(503)
    }
    let middleware = RetryMiddleware(
      policy: RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(100)),
      sleep: { time.advance(by: $0) },
      random: { 1 },
      now: { time.now }
    )
    let request = HTTPRequest(method: .get, url: testURL(), timeout: .milliseconds(500))
    let (response, _) = try await stub.with(middleware).send(request)
    #expect(response.status == 503)
    // 150 ms, wait 100, 150 ms, wait 200 (ends at 600 > 500): two attempts.
    let timeouts = stub.requests.map(\.timeout)
    #expect(timeouts.count == 2)
    #expect(timeouts.first == .milliseconds(500))
    #expect(timeouts.last.flatMap { $0 } ?? .zero < .milliseconds(260))
    #expect(time.now.timeIntervalSince1970 <= 0.5)
  }

  @Test func withoutATimeoutEveryAttemptIsMade() async throws {
    let stub = ScriptedClient(status: 503)
    let middleware = RetryMiddleware(
      policy: RetryPolicy(maxAttempts: 4), sleep: { _ in }, random: { 0 })
    _ = try await stub.with(middleware).send(HTTPRequest(method: .get, url: testURL()))
    #expect(stub.requests.count == 4)
    #expect(stub.requests.allSatisfy { $0.timeout == nil })
  }
}

/// The budget's own error, and a timeout per attempt.
@Suite struct RetryBudgetTests {

  @Test func aFailureThatTheBudgetCannotRetryNamesTheBudget() async throws {
    let time = RetryDeadlineTests.FakeTime()
    let stub = ScriptedClient { _, _ in
      time.advance(by: .milliseconds(300))
      throw fakeTransportFailure(isTransient: true)
    }
    let middleware = RetryMiddleware(
      policy: RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(400)),
      sleep: { time.advance(by: $0) }, random: { 1 }, now: { time.now })
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await stub.with(middleware).send(
        HTTPRequest(method: .get, url: testURL(), timeout: .seconds(1)))
    }
    #expect(error?.kind == .retryBudgetExhausted)
    #expect(error?.isTransient == false)
    #expect(error?.timeout == .seconds(1))
    #expect(error?.description.contains("gave up after 2 attempts") == true)
    #expect((error?.underlyingError as? TransportFailure)?.kind == .connectionLost)
    #expect(error?.description.contains("timeout of 1 s") == true)
  }

  @Test func eachAttemptGetsItsOwnLimitWithinTheBudget() async throws {
    let stub = ScriptedClient(status: 503)
    var policy = RetryPolicy(maxAttempts: 3)
    policy.attemptTimeout = .milliseconds(200)
    let middleware = RetryMiddleware(policy: policy, sleep: { _ in }, random: { 0 })
    _ = try await stub.with(middleware).send(HTTPRequest(method: .get, url: testURL()))
    #expect(stub.requests.map(\.timeout) == Array(repeating: .milliseconds(200), count: 3))
  }
}
