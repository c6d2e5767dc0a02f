import EndpointTesting
import Foundation
import Testing

@Suite struct StubTimesTests {
  @Test func onceRuleIsUsedUpAndReportedAsSuch() async throws {
    let stub = StubClient()
    stub.on(.get, "/token").reply(status: 200).once()
    #expect(try await stub.send(request(.get, "https://x.test/token")).0.status == 200)
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/token"))
    }
    #expect(error?.description.contains("✗ times: used up, answered 1 of 1 times") == true)
  }

  @Test func timesRuleAnswersThatManyTimes() async throws {
    let stub = StubClient()
    let rule = stub.on(.get, "/x").reply(status: 200).times(3)
    for _ in 0..<3 {
      _ = try await stub.send(request(.get, "https://x.test/x"))
    }
    #expect(rule.matchCount == 3)
    await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/x"))
    }
  }

  @Test func usedUpRuleFallsThroughToTheNextOne() async throws {
    let stub = StubClient()
    stub.on(.get, "/flaky").reply(status: 503).times(2)
    stub.on(.get, "/flaky").reply(status: 200)
    var statuses: [Int] = []
    for _ in 0..<4 {
      statuses.append(try await stub.send(request(.get, "https://x.test/flaky")).0.status)
    }
    #expect(statuses == [503, 503, 200, 200])
  }

  @Test func sequenceAnswersInTurnThenIsUsedUp() async throws {
    let stub = StubClient()
    stub.on(.get, "/job").replies([.text("queued"), .text("running"), .text("done")])
    var states: [String] = []
    for _ in 0..<3 {
      states.append(try await text(stub.send(request(.get, "https://x.test/job")).1))
    }
    #expect(states == ["queued", "running", "done"])
    let error = await expectFailure(.noMatchingStub) {
      try await stub.send(request(.get, "https://x.test/job"))
    }
    #expect(error?.description.contains("used up, answered 3 of 3 times") == true)
  }

  @Test func sequenceThenAlwaysRepeatsTheLast() async throws {
    let stub = StubClient()
    stub.on(.get, "/job").replies([.status(202), .status(200)]).always()
    var statuses: [Int] = []
    for _ in 0..<4 {
      statuses.append(try await stub.send(request(.get, "https://x.test/job")).0.status)
    }
    #expect(statuses == [202, 200, 200, 200])
  }

  @Test func sequenceMayMixErrorsAndResponsesForRetryTests() async throws {
    let stub = StubClient()
    stub.on(.get, "/retry").replies([.failure(Timeout()), .status(500), .status(200)])
    await #expect(throws: Timeout.self) {
      try await stub.send(request(.get, "https://x.test/retry"))
    }
    #expect(try await stub.send(request(.get, "https://x.test/retry")).0.status == 500)
    #expect(try await stub.send(request(.get, "https://x.test/retry")).0.status == 200)
  }

  @Test func timesBelowOneIsInvalid() async throws {
    let stub = StubClient()
    stub.on(.get, "/x").reply(status: 200).times(0)
    let error = await expectFailure(.invalidStub) {
      try await stub.send(request(.get, "https://x.test/x"))
    }
    #expect(error?.reason == "times(0): a rule must answer at least once")
  }

  @Test func emptySequenceIsInvalid() async throws {
    let stub = StubClient()
    stub.on(.get, "/x").replies([])
    await expectFailure(.invalidStub) {
      try await stub.send(request(.get, "https://x.test/x"))
    }
  }

  @Test func thousandConcurrentCallsCountExactly() async throws {
    let stub = StubClient()
    let limited = stub.on(.get, "/limited").reply(status: 200).times(300)
    let fallback = stub.on(.get, "/limited").reply(status: 429)
    let other = stub.on(.post, "/other").reply(status: 201)
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<1_000 {
        group.addTask {
          if index % 4 == 0 {
            return try await stub.send(request(.post, "https://x.test/other", body: "\(index)")).0
              .status
          }
          return try await stub.send(request(.get, "https://x.test/limited")).0.status
        }
      }
      return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
    }
    #expect(statuses == [200: 300, 429: 450, 201: 250])
    #expect(limited.matchCount == 300)
    #expect(fallback.matchCount == 450)
    #expect(other.matchCount == 250)
    #expect(stub.requests.count == 1_000)
    #expect(Set(other.requests.map(\.body)).count == 250)
    try stub.verify()
  }
}
