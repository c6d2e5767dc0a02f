import Foundation
import Testing

@testable import EndpointCurl

/// The connect timeout and Unix domain sockets, on the wire.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ConnectionOptionsTests {
  // MARK: - Connect timeout

  @Test func aListenerThatNeverCompletesTheConnectionFailsWithConnectTimeout() async throws {
    let listener = try StalledListener()
    defer { listener.close() }
    var configuration = CurlHTTPClient.Configuration()
    configuration.connectTimeout = .milliseconds(300)
    // The idle timeout and the deadline are far away: only the connect timeout can end it.
    configuration.idleTimeout = .seconds(60)
    configuration.deadline = .seconds(120)
    let client = try CurlHTTPClient(configuration: configuration)
    let url = URL(string: "http://127.0.0.1:\(listener.port)/never")!
    let start = ContinuousClock.now
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.kind == .connectTimeout)
    let elapsed = ContinuousClock.now - start
    #expect(error.timeout == .milliseconds(300))
    #expect(error.url == url)
    #expect(error.isTransient)
    #expect(error.description.contains("connect timeout"))
    // Far below the idle timeout, with room for a loaded machine.
    #expect(elapsed >= .milliseconds(250))
    #expect(elapsed < .seconds(20))
  }

  @Test func withoutAConnectTimeoutTheIdleTimeoutStillCoversTheConnection() async throws {
    let listener = try StalledListener()
    defer { listener.close() }
    var configuration = CurlHTTPClient.Configuration()
    configuration.idleTimeout = .milliseconds(400)
    let client = try CurlHTTPClient(configuration: configuration)
    let url = URL(string: "http://127.0.0.1:\(listener.port)/never")!
    let failure = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(failure?.kind == .idleTimeout)
  }

  @Test func aConnectTimeoutDoesNotLimitASlowAnswerOnAnOpenConnection() async throws {
    var configuration = CurlHTTPClient.Configuration()
    configuration.connectTimeout = .milliseconds(500)
    let client = try CurlHTTPClient(configuration: configuration)
    // httpbin answers after 1.5 s: longer than the connect timeout, on a connection made at once.
    let url = try TestServers.httpbin.adding("/delay/1.5")
    let (response, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
  }

  @Test func aConnectTimeoutBelowAMillisecondIsRefusedWhenTheClientIsMade() throws {
    var configuration = CurlHTTPClient.Configuration()
    configuration.connectTimeout = .zero
    let error = try #require(throws: InvalidRequest.self) {
      _ = try CurlHTTPClient(configuration: configuration)
    }
    #expect(error.kind == .configuration)
    #expect(error.setting == "connectTimeout")
    #expect(
      error.description
        == "invalid configuration: connectTimeout: \(Duration.zero) is below one millisecond; "
        + "use nil for libcurl's default")
  }

  // MARK: - Unix domain sockets

  @Test func requestsGoOverTheUnixSocketWithTheURLsHostAndPath() async throws {
    let server = try UnixSocketServer()
    defer { server.stop() }
    let client = try CurlHTTPClient(configuration: .unixSocket(path: server.path))
    let url = URL(string: "http://localhost/v1.43/containers/json?all=1")!
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(json["method"] as? String == "GET")
    #expect(json["path"] as? String == "/v1.43/containers/json?all=1")
    #expect(json["host"] as? String == "localhost")

    let post = HTTPRequest(
      method: .post,
      url: URL(string: "http://docker/v1.43/containers/create")!,
      body: HTTPBody(Data("{\"Image\":\"alpine\"}".utf8))
    )
    let (created, echo) = try await sendForJSON(client, post)
    #expect(created.status == 200)
    #expect(echo["host"] as? String == "docker")
    #expect(echo["body"] as? String == "{\"Image\":\"alpine\"}")
  }

  @Test func aMissingSocketFailsToConnect() async throws {
    let path = "/tmp/endpoint-missing-\(UUID().uuidString.prefix(8)).sock"
    let client = try CurlHTTPClient(configuration: .unixSocket(path: path))
    let failure = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: URL(string: "http://localhost/")!))
    }
    #expect(failure.kind == .cannotConnect)
  }

  @Test func socketPathsThatCannotWorkAreRefusedWhenTheClientIsMade() throws {
    let long = "/tmp/" + String(repeating: "s", count: 120)
    for path in ["", long] {
      let error = try #require(throws: InvalidRequest.self) {
        _ = try CurlHTTPClient(configuration: .unixSocket(path: path))
      }
      #expect(error.kind == .configuration)
      #expect(error.setting == "unixSocketPath")
    }
  }
}

/// `Tests/Servers/unix_server.py` on a socket in `/tmp`, started for one test.
final class UnixSocketServer: @unchecked Sendable {
  let path = "/tmp/endpoint-\(UUID().uuidString.prefix(12)).sock"
  private let process = Process()

  init() throws {
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Servers/unix_server.py")
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--socket", path, "--lifetime", "120"]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let start = ContinuousClock.now
    while !FileManager.default.fileExists(atPath: path) {
      guard process.isRunning, ContinuousClock.now - start < .seconds(30) else {
        stop()
        throw POSIXError(.ENOENT)
      }
      usleep(20_000)
    }
  }

  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: path)
  }
}
