import Foundation
import Testing

@testable import EndpointCurl

#if canImport(Glibc)
  import Glibc
#endif

/// The connect timeout and Unix domain sockets, on the wire.
@Suite struct ConnectionOptionsTests {
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
    let error = try await #require(throws: ConnectTimeout.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    let elapsed = ContinuousClock.now - start
    #expect(error.limit == .milliseconds(300))
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
    await #expect(throws: IdleTimeout.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
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
    let error = try #require(throws: CurlHTTPClient.InvalidConfiguration.self) {
      _ = try CurlHTTPClient(configuration: configuration)
    }
    #expect(error.setting == "connectTimeout")
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
    let failure = try await #require(throws: CurlHTTPClient.ConnectionFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: URL(string: "http://localhost/")!))
    }
    #expect(failure.kind == .cannotConnect)
  }

  @Test func socketPathsThatCannotWorkAreRefusedWhenTheClientIsMade() throws {
    let long = "/tmp/" + String(repeating: "s", count: 120)
    for path in ["", long] {
      let error = try #require(throws: CurlHTTPClient.InvalidConfiguration.self) {
        _ = try CurlHTTPClient(configuration: .unixSocket(path: path))
      }
      #expect(error.setting == "unixSocketPath")
    }
  }
}

/// A loopback TCP listener that never accepts, with its one-place backlog filled: the kernel
/// drops every further SYN, so a connect to it waits until the client gives up.
final class StalledListener: @unchecked Sendable {
  let port: UInt16
  private var descriptors: [Int32] = []

  init() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EMFILE) }
    descriptors.append(listener)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && listen(listener, 0) == 0
          && getsockname(listener, pointer, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    port = UInt16(bigEndian: address.sin_port)
    // Backlog 0 holds one finished connection; the others' SYNs are dropped from then on.
    for _ in 0..<3 {
      let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      guard filler >= 0 else { continue }
      descriptors.append(filler)
      _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    usleep(100_000)
  }

  func close() {
    for descriptor in descriptors { _ = Glibc.close(descriptor) }
    descriptors = []
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
