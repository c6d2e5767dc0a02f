import Foundation
import Synchronization
import Testing

@testable import EndpointCurl

/// A server may answer before it has read the whole request. When the response ends while the
/// request body's stream is still open, the curl client completes the call at once and cancels
/// the rest of the upload, rather than wait for a stream that may never end. (URLSession reads
/// a streamed body to its end before it sends it: see "The transport on Linux".)
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct DuplexTests {
  /// `keep=1`: the answer leaves out `Connection: close` (libcurl stops sending by itself when
  /// the server said it closes, or for a status of 300 or more). `framing=chunked`: the body
  /// is chunked, in two chunks and a trailer field, so its end is only in its framing;
  /// `framing=close`: the body has no length, its end is the close of the server's side.
  @Test(
    arguments: [200, 204, 413],
    [
      "keep=1", "keep=0", "keep=1&framing=chunked", "keep=0&framing=chunked",
      "framing=close",
    ])
  func anAnswerBeforeTheUploadEndsCompletesTheCall(status: Int, query: String) async throws {
    let client = try TransportUnderTest.curl.makeClient(idleTimeout: .seconds(30))
    // A first piece, then nothing: the stream stays open until the test ends.
    let upload = OpenUpload()
    defer { upload.finish() }
    let url = try TestServers.fault.adding("/early?status=\(status)&\(query)")
    let request = HTTPRequest(method: .post, url: url, body: upload.body)
    let start = ContinuousClock.now
    let (response, body) = try await client.send(request)
    let data = try await body.collect(upTo: 1 << 16)
    let elapsed = ContinuousClock.now - start
    #expect(response.status == status)
    if status != 204 {
      let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Int])
      #expect(json["early"] == status)
      if query.hasSuffix("framing=chunked") {
        #expect(body.trailerFields?["X-Early"] == "done")
      }
    }
    // Far below the idle timeout, which is what ended such a call before.
    #expect(elapsed < .seconds(20), "\(elapsed)")
    // The upload was cancelled: the stream is no longer read, and no transfer is left.
    #expect(try await TransportUnderTest.curl.waitUntilIdle(client, within: .seconds(5)))
    try await expectStreamCancelled { upload.ended }
  }

  /// A chunked early answer 16 times the client's 64 KiB stream buffer: the
  /// transfer pauses while the reader is behind, and the call still ends with every byte and
  /// the trailer field, then cancels the upload.
  @Test func aLargeChunkedAnswerBeforeTheUploadEndsArrivesWhole() async throws {
    let client = try CurlHTTPClient(
      configuration: .init(idleTimeout: .seconds(30), streamBufferSize: 64 * 1024))
    let upload = OpenUpload()
    defer { upload.finish() }
    let size = 1 << 20
    let url = try TestServers.fault.adding(
      "/early?status=200&keep=1&framing=chunked&size=\(size)")
    let start = ContinuousClock.now
    let (response, body) = try await client.send(
      HTTPRequest(method: .post, url: url, body: upload.body))
    let (received, onlyX) = try await countXs(in: body)
    #expect(response.status == 200)
    #expect(received == size)
    #expect(onlyX)
    #expect(body.trailerFields?["X-Early"] == "done")
    #expect(ContinuousClock.now - start < .seconds(20))
    #expect(try await TransportUnderTest.curl.waitUntilIdle(client, within: .seconds(5)))
    try await expectStreamCancelled { upload.ended }
  }

  /// A gzip answer that decodes to many times the stream buffer, read only once the client
  /// has paused the transfer for the reader: every wire byte may have arrived by then, and the
  /// call still ends with every decoded byte when the reader catches up, then cancels the
  /// upload.
  @Test(arguments: ["keep=1", "keep=1&framing=chunked"])
  func aCodedAnswerForAReaderThatFellBehindArrivesWhole(framing: String) async throws {
    let client = try CurlHTTPClient(
      configuration: .init(idleTimeout: .seconds(30), streamBufferSize: 64 * 1024))
    let upload = OpenUpload()
    defer { upload.finish() }
    let size = 4 << 20
    let url = try TestServers.fault.adding(
      "/early?status=200&coding=gzip&size=\(size)&\(framing)")
    let start = ContinuousClock.now
    let (response, body) = try await client.send(
      HTTPRequest(method: .post, url: url, body: upload.body))
    #expect(response.status == 200)
    // The reader is behind: the decoded bytes fill the stream buffer and the transfer pauses.
    let deadline = ContinuousClock.now + .seconds(10)
    while client.bytesWaitingForReaders < 64 * 1024, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(client.bytesWaitingForReaders >= 64 * 1024)
    let (received, onlyX) = try await countXs(in: body)
    #expect(received == size)
    #expect(onlyX)
    #expect(ContinuousClock.now - start < .seconds(20))
    #expect(try await TransportUnderTest.curl.waitUntilIdle(client, within: .seconds(5)))
    try await expectStreamCancelled { upload.ended }
  }

  /// Waits (up to 5 s) until `hasEnded` says the request body's stream is no longer read.
  private func expectStreamCancelled(_ hasEnded: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while !hasEnded(), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(hasEnded(), "the request body's stream is still being read")
  }
}

/// A request body's stream that gives one 4 KiB piece and then stays open until ``finish()``;
/// ``ended`` turns true once the client stops reading it.
private final class OpenUpload: Sendable {
  let body: HTTPBody
  private let continuation: AsyncStream<Data>.Continuation
  private let state: EndState

  private final class EndState: Sendable {
    let ended = Mutex(false)
  }

  init() {
    let (chunks, continuation) = AsyncStream<Data>.makeStream()
    let state = EndState()
    continuation.onTermination = { _ in state.ended.withLock { $0 = true } }
    continuation.yield(Data(repeating: UInt8(ascii: "u"), count: 4096))
    self.body = HTTPBody(chunks)
    self.continuation = continuation
    self.state = state
  }

  var ended: Bool { state.ended.withLock { $0 } }

  func finish() { continuation.finish() }
}

/// Reads `body` to its end: how many bytes, and whether every one is `x`.
private func countXs(in body: HTTPBody) async throws -> (count: Int, onlyX: Bool) {
  var count = 0
  var onlyX = true
  for try await chunk in body {
    count += chunk.count
    onlyX = onlyX && chunk.allSatisfy { $0 == UInt8(ascii: "x") }
  }
  return (count, onlyX)
}
