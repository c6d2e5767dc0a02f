import Foundation
import Testing

@testable import EndpointCurl

/// How the loop keeps libcurl's sockets in its epoll set: registered once per connection, not
/// once per request, and never watched after libcurl closed them.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct SocketWatchingTests {
  @Test func requestsOnAKeptAliveConnectionDoNotChangeTheEpollSet() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let (_, warmUp) = try await client.send(HTTPRequest(method: .get, url: url))
    _ = try await warmUp.collect(upTo: 1 << 16)
    let before = client.pollerControlCalls
    for _ in 0..<20 {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 16)
      #expect(response.status == 200)
    }
    // Before, each request added its socket and removed it again (2-3 calls per request).
    #expect(client.pollerControlCalls - before <= 2)
  }

  @Test(.timeLimit(.minutes(1)))
  func aSocketNumberReusedByTheNextConnectionIsWatchedAgain() async throws {
    // Every answer closes its connection, so each request opens a socket that most often gets
    // the number of the one just closed; a table that still believed it registered would leave
    // the request waiting forever.
    let server = try CannedServer(
      response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    defer { server.stop() }
    let client = try CurlHTTPClient(configuration: .init(deadline: .seconds(10)))
    for _ in 0..<30 {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
      #expect(response.status == 200)
      #expect(try await body.collect(upTo: 16) == Data("ok".utf8))
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func anIdleConnectionTheServerClosesNeitherSpinsTheLoopNorFailsTheNextRequest() async throws {
    // The answer claims keep-alive, so libcurl keeps the connection; the server then closes it,
    // and the idle socket, still in the epoll set, becomes readable for good.
    let server = try CannedServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
    defer { server.stop() }
    let client = try CurlHTTPClient(configuration: .init(deadline: .seconds(10)))
    for _ in 0..<3 {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
      #expect(response.status == 200)
      #expect(try await body.collect(upTo: 16) == Data("ok".utf8))
      try await Task.sleep(for: .milliseconds(50))
      let waits = client.pollerWaits
      try await Task.sleep(for: .milliseconds(200))
      // A loop that kept being told about the closed socket would wait thousands of times.
      #expect(client.pollerWaits - waits < 20)
    }
  }
}
