import Dispatch
import EndpointKernel
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl

/// The writer of a download's file: what the loop copies is written in order on a queue of its
/// own, a queue that falls behind pauses the transfer at the high water and resumes it at the
/// low water, and nothing is left behind when the download is discarded.
@Suite struct DownloadWriterTests {
  /// `count` bytes that differ from one offset to the next, so a piece written out of order or
  /// twice shows.
  private func body(_ count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
  }

  @Test(.timeLimit(.minutes(1)))
  func aQueueThatFallsBehindPausesAtTheHighWaterAndResumesAtTheLowWater() async throws {
    try await withTemporaryDirectory { directory in
      let destination = directory.appending(path: "body.bin")
      let queue = DispatchQueue(label: "slow disk")
      // The queue stands for a disk that has not written anything yet.
      queue.suspend()
      let (resumed, resume) = AsyncStream<Void>.makeStream()
      let writer = DownloadWriter(
        file: try DownloadFile(destination: destination), queue: queue
      ) { resume.yield() }
      let piece = 64 * 1024
      let expected = body(DownloadWriter.highWater + 3 * piece + 100)
      var offset = 0
      var paused = false
      while offset < expected.count, !paused {
        let end = min(offset + piece, expected.count)
        switch expected[offset..<end].withUnsafeBytes({ writer.offer($0) }) {
        case .taken: offset = end
        case .pause: paused = true
        case .failed(let error): Issue.record("a write failed: \(error)")
        }
      }
      #expect(paused)
      #expect(offset == DownloadWriter.highWater)
      queue.resume()
      var events = resumed.makeAsyncIterator()
      _ = await events.next()
      while offset < expected.count {
        let end = min(offset + piece, expected.count)
        let offer = expected[offset..<end].withUnsafeBytes { writer.offer($0) }
        guard case .taken = offer else {
          Issue.record("a piece after the resume was not taken: \(offer)")
          return
        }
        offset = end
      }
      try writer.finish()
      #expect(try Data(contentsOf: destination) == expected)
      // Only the destination: the partial file was renamed over it.
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(names == ["body.bin"])
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aDiscardedDownloadLeavesNoFileEvenWithWritesStillQueued() throws {
    try withTemporaryDirectory { directory in
      let queue = DispatchQueue(label: "slow disk")
      queue.suspend()
      let writer = DownloadWriter(
        file: try DownloadFile(destination: directory.appending(path: "body.bin")), queue: queue
      ) {}
      let pieces = body(3 * DownloadWriter.bufferSize)
      let offer = pieces.withUnsafeBytes { writer.offer($0) }
      guard case .taken = offer else {
        Issue.record("the pieces were not taken: \(offer)")
        return
      }
      writer.discard()
      queue.resume()
      queue.sync {}
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
  }
}
