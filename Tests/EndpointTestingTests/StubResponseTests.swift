import EndpointCore
import EndpointPrimitives
import EndpointTesting
import Foundation
import Synchronization
import Testing

@Suite struct StubResponseTests {
  @Test func replyBuildsStatusHeadersAndBody() async throws {
    let stub = StubClient()
    stub.on(.get, "/t").reply(status: 203, headers: ["X-Rate": "5"], text: "héllo")
    let (response, body) = try await stub.send(request(.get, "https://x.test/t"))
    #expect(response.status == 203)
    #expect(response.headerFields["x-rate"] == "5")
    #expect(response.headerFields["Content-Type"] == "text/plain; charset=utf-8")
    #expect(response.url?.absoluteString == "https://x.test/t")
    #expect(try await text(body) == "héllo")
  }

  @Test func jsonReplyKeepsAnExplicitContentType() async throws {
    let stub = StubClient()
    stub.on(.get, "/p").reply(
      headers: ["Content-Type": "application/problem+json"], json: #"{"a":1}"#)
    let (response, _) = try await stub.send(request(.get, "https://x.test/p"))
    #expect(response.headerFields.values(for: "content-type") == ["application/problem+json"])
  }

  @Test func dataReplyKeepsBytes() async throws {
    let stub = StubClient()
    let bytes = Data([0, 255, 7])
    stub.on(.get, "/bin").reply(.data(bytes, contentType: "image/png"))
    let (response, body) = try await stub.send(request(.get, "https://x.test/bin"))
    #expect(response.mediaType == "image/png")
    #expect(try await body.collect(upTo: 100) == bytes)
  }

  @Test func failReplyThrowsTheGivenError() async throws {
    let stub = StubClient()
    stub.on(.get, "/slow").fail(with: Timeout())
    await #expect(throws: Timeout.self) {
      try await stub.send(request(.get, "https://x.test/slow"))
    }
    #expect(stub.requests.first?.error == "Timeout()")
    #expect(stub.requests.first?.status == nil)
  }

  @Test func hangWaitsUntilTheCallerCancels() async throws {
    let stub = StubClient()
    stub.on(.get, "/never").hang()
    let call = Task { try await stub.send(request(.get, "https://x.test/never")) }
    // Bounded, so a regression fails instead of hanging the suite.
    for _ in 0..<100_000 where stub.requests.first?.isPending != true {
      await Task.yield()
    }
    try #require(stub.requests.first?.isPending == true)
    call.cancel()
    await #expect(throws: CancellationError.self) { try await call.value }
    #expect(stub.requests.first?.wasCancelled == true)
    #expect(stub.requests.first?.isPending == false)
  }

  @Test func delayWaitsOnTheInjectedManualClock() async throws {
    let clock = ManualClock()
    let stub = StubClient(clock: clock)
    stub.on(.get, "/slow").reply(.status(200).delayed(by: .seconds(5)))
    let call = Task { try await stub.send(request(.get, "https://x.test/slow")) }
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(4))
    #expect(stub.requests.first?.isPending == true)
    clock.advance(by: .seconds(1))
    #expect(clock.elapsed == .seconds(5))
    let (response, _) = try await call.value
    #expect(response.status == 200)
    #expect(stub.requests.first?.status == 200)
    #expect(stub.requests.first?.isPending == false)
  }

  @Test func delayedCallIsCancelledWhileWaiting() async throws {
    let clock = ManualClock()
    let stub = StubClient(clock: clock)
    stub.on(.get, "/slow").reply(status: 200).delayed(by: .seconds(60))
    let call = Task { try await stub.send(request(.get, "https://x.test/slow")) }
    await clock.waitForSleepers(1)
    call.cancel()
    await #expect(throws: CancellationError.self) { try await call.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func immediateClockSkipsDelayButCountsIt() async throws {
    let clock = ManualClock(sleepsImmediately: true)
    let stub = StubClient(clock: clock)
    stub.on(.get, "/slow").reply(.status(200).delayed(by: .seconds(30)))
    _ = try await stub.send(request(.get, "https://x.test/slow"))
    #expect(clock.elapsed == .seconds(30))
  }

  @Test func computedResponsesBackAStatefulFake() async throws {
    let todos = Mutex<[Int: String]>([:])
    let stub = StubClient()
    stub.on(.post, "/todos").reply { request in
      let title = request.text ?? ""
      let id = todos.withVisibleLock { store in
        store[store.count + 1] = title
        return store.count
      }
      return .json(#"{"id": \#(id)}"#, status: 201)
    }
    stub.on(.get, "/todos/{id}").reply { request in
      guard let id = Int(request.pathParameters["id"] ?? ""),
        let title = todos.withVisibleLock({ $0[id] })
      else { return .status(404) }
      return .text(title)
    }
    _ = try await stub.send(request(.post, "https://x.test/todos", body: "Milk"))
    _ = try await stub.send(request(.post, "https://x.test/todos", body: "Eggs"))
    let (found, body) = try await stub.send(request(.get, "https://x.test/todos/2"))
    #expect(found.status == 200)
    #expect(try await text(body) == "Eggs")
    #expect(try await stub.send(request(.get, "https://x.test/todos/9")).0.status == 404)
  }

  @Test func computedResponseCanDecodeTheRequest() async throws {
    let stub = StubClient()
    stub.on(.put, "/users/{id}").reply { request in
      let user = try request.decode(User.self)
      return .json(user, status: request.pathParameters["id"] == "\(user.id)" ? 200 : 409)
    }
    let put = try request(.put, "https://x.test/users/3", body: #"{"id": 4, "name": "A"}"#)
    #expect(try await stub.send(put).0.status == 409)
  }

  @Test func invalidJSONReplyIsReportedOnEveryCallAndByVerify() async throws {
    let stub = StubClient()
    stub.on(.get, "/bad").reply(json: "{not json")
    let error = await expectFailure(.invalidStub) {
      try await stub.send(request(.get, "https://x.test/bad"))
    }
    #expect(error?.description.contains("#1 GET /bad") == true)
    #expect(error?.description.contains("not valid JSON") == true)
    expectFailure(.verificationFailed) { try stub.verify() }
  }

  @Test func invalidHeaderAndStatusAreReported() async throws {
    let badHeader = StubClient()
    badHeader.on(.get, "/h").reply(headers: ["Bad Name": "x"])
    await expectFailure(.invalidStub) {
      try await badHeader.send(request(.get, "https://x.test/h"))
    }
    let badStatus = StubClient()
    badStatus.on(.get, "/s").reply(status: 42)
    let error = await expectFailure(.invalidStub) {
      try await badStatus.send(request(.get, "https://x.test/s"))
    }
    #expect(error?.reason == "status 42 is not between 100 and 599")
  }
}
