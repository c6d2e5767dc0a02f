import EndpointCore
import EndpointPrimitives
import Synchronization
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A client that holds every request until it is released, and counts what it was sent.
private final class HeldClient: HTTPClient, Sendable {
  private struct State {
    var sent: [HTTPRequest] = []
    var released = false
    var waiting: [CheckedContinuation<Void, Never>] = []
    var cancelled = 0
  }

  private let state = Mutex(State())
  let body: Data
  let failure: TestFailure?

  init(body: Data = Data("shared body".utf8), failure: TestFailure? = nil) {
    self.body = body
    self.failure = failure
  }

  var sentCount: Int { state.withVisibleLock { $0.sent.count } }
  var cancelledCount: Int { state.withVisibleLock { $0.cancelled } }
  var sent: [HTTPRequest] { state.withVisibleLock { $0.sent } }

  func release() {
    let waiting = state.withVisibleLock { state in
      state.released = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    state.withVisibleLock { $0.sent.append(request) }
    await withCheckedContinuation { continuation in
      let now = state.withVisibleLock { state in
        if state.released { return true }
        state.waiting.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
    if Task.isCancelled {
      state.withVisibleLock { $0.cancelled += 1 }
      throw CancellationError()
    }
    if let failure { throw failure }
    var fields = HTTPFields()
    try fields.append(String(body.count), for: "Content-Length")
    return (HTTPResponse(status: 200, headerFields: fields), HTTPBody(body))
  }
}

/// Waits until `condition` holds, checking every millisecond for up to ten seconds.
private func eventually(_ condition: () -> Bool) async throws {
  let start = ContinuousClock.now
  while !condition() {
    if ContinuousClock.now - start > .seconds(10) { return }
    try await Task.sleep(for: .milliseconds(1))
  }
}

@Suite struct CoalescingMiddlewareTests {
  let url = URL(string: "https://api.example.com/v1/catalog")!

  @Test func identicalCallsInFlightShareOneExchangeAndEachReadsTheWholeBody() async throws {
    let base = HeldClient()
    let coalescing = CoalescingMiddleware()
    let client = base.with(coalescing)
    let request = HTTPRequest(method: .get, url: url)
    let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
      for _ in 0..<200 {
        group.addTask {
          let (response, body) = try await client.send(request)
          #expect(response.status == 200)
          return try await body.collect()
        }
      }
      try await eventually { coalescing.callersWaiting == 200 }
      #expect(coalescing.exchangesInFlight == 1)
      base.release()
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(base.sentCount == 1)
    #expect(bodies.count == 200)
    #expect(bodies.allSatisfy { $0 == base.body })
    #expect(coalescing.exchangesInFlight == 0)
  }

  @Test func fieldsThatMakeResponsesDifferKeepRequestsApartAndOthersDoNot() async throws {
    let base = HeldClient()
    let coalescing = CoalescingMiddleware(distinguishingFields: ["X-Tenant"])
    let client = base.with(coalescing)
    func request(_ fields: [String: String]) throws -> HTTPRequest {
      HTTPRequest(method: .get, url: url, headerFields: try HTTPFields(fields))
    }
    let variants = [
      try request(["Authorization": "Bearer a", "X-Request-ID": "1"]),
      try request(["Authorization": "Bearer a", "X-Request-ID": "2"]),  // joins the first
      try request(["Authorization": "Bearer b"]),
      try request(["Authorization": "Bearer a", "Accept": "text/csv"]),
      try request(["Authorization": "Bearer a", "X-Tenant": "north"]),
    ]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for variant in variants {
        group.addTask { _ = try await client.send(variant).1.collect() }
      }
      try await eventually { coalescing.callersWaiting == 5 }
      #expect(coalescing.exchangesInFlight == 4)
      base.release()
      try await group.waitForAll()
    }
    #expect(base.sentCount == 4)
  }

  @Test func otherMethodsAndRequestsWithABodyPassThrough() async throws {
    let base = HeldClient()
    base.release()
    let client = base.with(CoalescingMiddleware())
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<5 {
        group.addTask {
          _ = try await client.send(HTTPRequest(method: .post, url: url, body: HTTPBody("x")))
        }
        group.addTask {
          _ = try await client.send(HTTPRequest(method: .get, url: url, body: HTTPBody("x")))
        }
      }
      try await group.waitForAll()
    }
    #expect(base.sentCount == 10)
  }

  @Test func oneCallersCancellationLeavesTheOthersTheirResponse() async throws {
    let base = HeldClient()
    let coalescing = CoalescingMiddleware()
    let client = base.with(coalescing)
    let request = HTTPRequest(method: .get, url: url)
    let first = Task { try await client.send(request).1.collect() }
    try await eventually { coalescing.callersWaiting == 1 }
    let others = (0..<3).map { _ in Task { try await client.send(request).1.collect() } }
    try await eventually { coalescing.callersWaiting == 4 }
    first.cancel()
    await #expect(throws: CancellationError.self) { try await first.value }
    #expect(coalescing.exchangesInFlight == 1)
    base.release()
    for other in others { #expect(try await other.value == base.body) }
    #expect(base.sentCount == 1)
    #expect(base.cancelledCount == 0)
  }

  @Test func theSharedExchangeIsCancelledWhenTheLastCallerIs() async throws {
    let base = HeldClient()
    let coalescing = CoalescingMiddleware()
    let client = base.with(coalescing)
    let request = HTTPRequest(method: .get, url: url)
    let callers = (0..<3).map { _ in Task { try await client.send(request) } }
    try await eventually { coalescing.callersWaiting == 3 }
    for caller in callers { caller.cancel() }
    for caller in callers {
      await #expect(throws: CancellationError.self) { try await caller.value }
    }
    #expect(coalescing.exchangesInFlight == 0)
    base.release()
    try await eventually { base.cancelledCount == 1 }
    #expect(base.cancelledCount == 1)
    // A later caller starts afresh rather than join the cancelled exchange.
    let (response, _) = try await client.send(request)
    #expect(response.status == 200)
    #expect(base.sentCount == 2)
  }

  @Test func anErrorReachesEveryCaller() async throws {
    let base = HeldClient(failure: TestFailure(message: "upstream down"))
    let coalescing = CoalescingMiddleware()
    let client = base.with(coalescing)
    let request = HTTPRequest(method: .get, url: url)
    let callers = (0..<4).map { _ in Task { try await client.send(request) } }
    try await eventually { coalescing.callersWaiting == 4 }
    base.release()
    for caller in callers {
      await #expect(throws: TestFailure(message: "upstream down")) { try await caller.value }
    }
    #expect(base.sentCount == 1)
  }

  @Test func aBodyOverTheBufferLimitIsFetchedByEachCallerItself() async throws {
    let base = HeldClient(body: Data(repeating: 7, count: 100))
    let coalescing = CoalescingMiddleware(bufferLimit: 10)
    let client = base.with(coalescing)
    let request = HTTPRequest(method: .get, url: url)
    let callers = (0..<3).map { _ in Task { try await client.send(request).1.collect() } }
    try await eventually { coalescing.callersWaiting == 3 }
    base.release()
    for caller in callers { #expect(try await caller.value.count == 100) }
    #expect(base.sentCount == 4)  // the shared attempt, then one per caller
  }

  @Test func callsThatDoNotOverlapAreNotCoalesced() async throws {
    let base = HeldClient()
    base.release()
    let client = base.with(CoalescingMiddleware())
    for _ in 0..<3 { _ = try await client.send(HTTPRequest(method: .get, url: url)) }
    #expect(base.sentCount == 3)
  }
}
