import EndpointCore
import EndpointTestSupport
import Foundation
import Testing

/// The capture server the wire tests rely on: many start and stop at once in a parallel run, and
/// one that stops must never take (and drop) a connection meant for another. One did, when its
/// accept loop called `accept` on a listener number that `stop()` had closed and another
/// server's listener had reused: the client saw "Connection reset by peer".
@Suite struct CaptureServerTests {
  @Test func serversStartingAndStoppingAtOnceEachAnswerTheirOwnRequests() async throws {
    let client = try TransportUnderTest.curl.makeClient()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<40 {
            // One that stops before its accept loop may even have run: its listener's number
            // is free for the next server's listener at once.
            try CaptureServer().stop()
            let server = try CaptureServer()
            defer { server.stop() }
            let (response, body) = try await client.send(
              HTTPRequest(method: .get, url: server.url.appending(path: "mine")))
            #expect(try await body.collect(upTo: 16) == Data("ok".utf8))
            #expect(response.status == 200)
            #expect(server.requests.count == 1)
          }
        }
      }
      try await group.waitForAll()
    }
  }
}
