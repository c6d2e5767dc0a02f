import EndpointJSON
import Foundation
import Testing

@testable import EndpointCurl

/// The name of the thread the caller runs on (Linux keeps it in /proc).
private func currentThreadName() -> String {
  let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
  return name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
}

private struct Echo: Decodable, Sendable {
  var method: String
}

/// The curl client's loop thread as a task executor.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct LoopExecutorTests {
  @Test func codePreferringTheLoopResumesOnTheLoopThreadAfterEachResponse() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let threads = try await withTaskExecutorPreference(client.executor) {
      var names: [String] = []
      for _ in 0..<3 {
        let echo = try await client.call(Endpoint<Echo>(json: .get, url: url))
        #expect(echo.method == "GET")
        names.append(currentThreadName())
      }
      return names
    }
    #expect(threads == ["EndpointCurl", "EndpointCurl", "EndpointCurl"])
  }

  @Test func manyTasksOnTheLoopAllFinish() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let methods = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<100 {
        group.addTask(executorPreference: client.executor) {
          try await client.call(Endpoint<Echo>(json: .get, url: url)).method
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(methods.count == 100)
    #expect(Set(methods) == ["GET"])
  }

  @Test func afterShutdownTasksPreferringTheLoopStillRun() async throws {
    let client = try CurlHTTPClient()
    await client.shutdown()
    let value = await withTaskExecutorPreference(client.executor) {
      await Task.yield()
      return currentThreadName()
    }
    #expect(value != "EndpointCurl")
    let failure = await #expect(throws: TransportFailure.self) {
      try await withTaskExecutorPreference(client.executor) {
        try await client.send(HTTPRequest(method: .get, url: try TestServers.fault.adding("/echo")))
      }
    }
    #expect(failure?.kind == .shutDown)
  }
}
