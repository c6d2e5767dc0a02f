import EndpointCore
import EndpointPrimitives
import Foundation
import Synchronization
import Testing

@testable import EndpointTransport

/// A target that records when it was checked and answers from a script.
private final class ScriptedTarget: TimeoutTarget {
  private let checks = Mutex<[ContinuousClock.Instant]>([])
  private let answer: @Sendable (Int, ContinuousClock.Instant) -> ContinuousClock.Instant?

  init(answer: @escaping @Sendable (Int, ContinuousClock.Instant) -> ContinuousClock.Instant?) {
    self.answer = answer
  }

  var checked: [ContinuousClock.Instant] { checks.withVisibleLock { $0 } }

  func checkTimeouts(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
    let count = checks.withVisibleLock { checks in
      checks.append(now)
      return checks.count
    }
    return answer(count, now)
  }
}

/// Waits until `condition` holds or `limit` passes.
private func wait(
  upTo limit: Duration = .seconds(3),
  until condition: () -> Bool
) async throws {
  let end = ContinuousClock.now + limit
  while !condition(), ContinuousClock.now < end {
    try await Task.sleep(for: .milliseconds(5))
  }
}

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TimeoutSchedulerTests {
  @Test func anEarlierCheckAddedLaterFiresFirst() async throws {
    let scheduler = TimeoutScheduler()
    let start = ContinuousClock.now
    let late = ScriptedTarget { _, _ in nil }
    let early = ScriptedTarget { _, _ in nil }
    scheduler.add(late, checkAt: start + .seconds(30))
    scheduler.add(early, checkAt: start + .milliseconds(100))
    try await wait { !early.checked.isEmpty }
    let fired = try #require(early.checked.first)
    #expect(fired >= start + .milliseconds(100))
    #expect(fired < start + .seconds(2))
    #expect(late.checked.isEmpty)
    #expect(scheduler.count == 1)
    scheduler.remove(late)
    #expect(scheduler.count == 0)
  }

  @Test func aTargetIsCheckedAgainWhenItAsks() async throws {
    let scheduler = TimeoutScheduler()
    let start = ContinuousClock.now
    // Checked at 50 ms, asks again 100 ms later, then ends.
    let target = ScriptedTarget { count, now in count == 1 ? now + .milliseconds(100) : nil }
    scheduler.add(target, checkAt: start + .milliseconds(50))
    try await wait { target.checked.count == 2 }
    let checks = target.checked
    try #require(checks.count == 2)
    #expect(checks[1] - checks[0] >= .milliseconds(100))
    // Once the target ends it is no longer watched and nothing is armed: it cannot be
    // checked again.
    try await wait { scheduler.count == 0 && !scheduler.isArmed }
    #expect(scheduler.count == 0)
    #expect(!scheduler.isArmed)
    #expect(target.checked.count == 2)
  }

  @Test func aRemovedTargetIsNeverChecked() async throws {
    let scheduler = TimeoutScheduler()
    let removed = ScriptedTarget { _, _ in nil }
    let kept = ScriptedTarget { _, _ in nil }
    let start = ContinuousClock.now
    scheduler.add(removed, checkAt: start + .milliseconds(50))
    scheduler.add(kept, checkAt: start + .milliseconds(80))
    scheduler.remove(removed)
    try await wait { !kept.checked.isEmpty }
    #expect(kept.checked.count == 1)
    #expect(removed.checked.isEmpty)
  }

  @Test func manyTargetsWithDifferentInstantsAreEachCheckedOnTime() async throws {
    let scheduler = TimeoutScheduler()
    let start = ContinuousClock.now
    let delays = [400, 50, 250, 100, 300, 150, 200, 350].map { Duration.milliseconds($0) }
    let targets = delays.map { _ in ScriptedTarget { _, _ in nil } }
    for (target, delay) in zip(targets, delays) {
      scheduler.add(target, checkAt: start + delay)
    }
    try await wait { targets.allSatisfy { !$0.checked.isEmpty } }
    for (target, delay) in zip(targets, delays) {
      let fired = try #require(target.checked.first)
      #expect(target.checked.count == 1)
      #expect(fired >= start + delay)
    }
    #expect(scheduler.count == 0)
  }

  @Test func aShortRequestDeadlineFiresWhileALongerOneIsWaiting() async throws {
    let client = URLSessionHTTPClient()
    let url = try TestServers.fault.adding("/silent")
    let long = Task {
      try await client.send(HTTPRequest(method: .get, url: url, timeout: .seconds(20)))
    }
    try await Task.sleep(for: .milliseconds(50))
    let request = HTTPRequest(method: .get, url: url, timeout: .milliseconds(300))
    let (result, duration) = await elapsed { try await client.send(request) }
    let error = try #require(throws: TransportFailure.self) { try result.get() }
    #expect(error.kind == .deadlineExceeded)
    #expect(error.timeout == .milliseconds(300))
    #expect(error.elapsed ?? .zero >= .milliseconds(300))
    #expect(duration < .seconds(10))  // the other request's deadline is 20 s
    long.cancel()
    await #expect(throws: CancellationError.self) { try await long.value }
  }

  @Test func finishedRequestsLeaveNothingWatched() async throws {
    let client = URLSessionHTTPClient(configuration: .init(deadline: .seconds(30)))
    let url = try TestServers.fault.adding("/echo")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<20 {
        group.addTask {
          let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
          _ = try await body.collect(upTo: 1 << 16)
        }
      }
      try await group.waitForAll()
    }
    let cancelled = Task {
      try await client.send(HTTPRequest(method: .get, url: try TestServers.fault.adding("/silent")))
    }
    try await Task.sleep(for: .milliseconds(50))
    cancelled.cancel()
    _ = try? await cancelled.value
    #expect(client.transfersWatched == 0)
  }
}
