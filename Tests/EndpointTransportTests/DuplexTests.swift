import Foundation
import Synchronization
import Testing

@testable import EndpointCurl

/// A server may answer before it has read the whole request. When the response ends while the
/// request body's stream is still open, the curl client completes the call at once and cancels
/// the rest of the upload, rather than wait for a stream that may never end. (URLSession reads
/// a streamed body to its end before it sends it: see "The transport on Linux".)
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct DuplexTests {
  /// `keep`: the answer leaves out `Connection: close` (libcurl stops sending by itself when
  /// the server said it closes, or for a status of 300 or more).
  @Test(arguments: [200, 204, 413], [true, false])
  func anAnswerBeforeTheUploadEndsCompletesTheCall(status: Int, keep: Bool) async throws {
    let client = try TransportUnderTest.curl.makeClient(idleTimeout: .seconds(30))
    let (chunks, continuation) = AsyncStream<Data>.makeStream()
    let ended = Mutex(false)
    continuation.onTermination = { _ in ended.withLock { $0 = true } }
    defer { continuation.finish() }
    // A first piece, then nothing: the stream stays open until the test ends.
    continuation.yield(Data(repeating: UInt8(ascii: "u"), count: 4096))
    let url = try TestServers.fault.adding("/early?status=\(status)&keep=\(keep ? 1 : 0)")
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks))
    let start = ContinuousClock.now
    let (response, body) = try await client.send(request)
    let data = try await body.collect(upTo: 1 << 16)
    let elapsed = ContinuousClock.now - start
    #expect(response.status == status)
    if status != 204 {
      let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Int])
      #expect(json["early"] == status)
    }
    // Far below the idle timeout, which is what ended such a call before.
    #expect(elapsed < .seconds(10), "\(elapsed)")
    // The upload was cancelled: the stream is no longer read, and no transfer is left.
    #expect(try await TransportUnderTest.curl.waitUntilIdle(client, within: .seconds(5)))
    let deadline = ContinuousClock.now + .seconds(5)
    while !ended.withLock({ $0 }), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(ended.withLock { $0 }, "the request body's stream is still being read")
  }
}
