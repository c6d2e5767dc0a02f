import Foundation
import Testing

@testable import EndpointCurl

/// How large bodies move between libcurl and the caller.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct LargeBodyTests {
  /// libcurl hands a body over in pieces of at most 16 KiB; the pieces that wait for the reader
  /// are joined, so a reader that falls behind takes few, large chunks.
  @Test func aBodyReadLateComesInChunksLargerThanLibcurlsPieces() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/large?bytes=4000000")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    // Nobody reads until half the default 1 MiB stream buffer waits (generous on a loaded
    // machine: up to 20 s).
    for _ in 0..<1000 where client.bytesWaitingForReaders < 512 * 1024 {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(client.bytesWaitingForReaders >= 512 * 1024)
    var total = 0
    var first = 0
    for try await chunk in body {
      if total == 0 { first = chunk.count }
      total += chunk.count
    }
    #expect(total == 4_000_000)
    #expect(first > 16 * 1024)
    #expect(client.bytesWaitingForReaders == 0)
  }

  /// A reader that waits for every byte gets them all, in order, whatever the chunking; with a
  /// small stream buffer the transfer pauses and resumes along the way.
  @Test func aWaitingReaderGetsEveryByteInOrder() async throws {
    let client = try CurlHTTPClient(configuration: .init(streamBufferSize: 64 * 1024))
    let url = try TestServers.fault.adding("/pattern?bytes=3000000")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    var offset = 0
    var misplaced = 0
    var chunks = 0
    for try await chunk in body {
      chunks += 1
      for byte in chunk {
        if Int(byte) != offset % 251 { misplaced += 1 }
        offset += 1
      }
      // Now and then the reader falls behind, so chunks queue up and are joined.
      if chunks % 16 == 0 { try await Task.sleep(for: .milliseconds(5)) }
    }
    #expect(offset == 3_000_000)
    #expect(misplaced == 0)
    #expect(client.bytesWaitingForReaders == 0)
  }
}
