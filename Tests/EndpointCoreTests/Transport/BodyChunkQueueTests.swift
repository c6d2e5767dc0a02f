import EndpointCore
import EndpointKernel
import Foundation
import Testing

/// The queue of a streamed body's unread chunks both transports fill ahead of the reader.
@Suite struct BodyChunkQueueTests {
  private struct Failure: Error, Equatable {}

  private func text(_ take: BodyChunkQueue.Take) -> String {
    switch take {
    case .chunk(let data): "chunk " + String(decoding: data, as: UTF8.self)
    case .end: "end"
    case .failure(let error): "failure \(error is Failure)"
    case .wait: "wait"
    }
  }

  @Test func chunksComeOutInOrderAndCountTheirBytes() {
    var queue = BodyChunkQueue()
    #expect(queue.next() == nil)
    queue.append(Data("ab".utf8))
    queue.append(Data("cde".utf8))
    #expect(queue.bufferedBytes == 5)
    #expect(queue.next() == Data("ab".utf8))
    #expect(queue.bufferedBytes == 3)
    queue.append(Data("f".utf8))
    #expect(queue.next() == Data("cde".utf8))
    #expect(queue.next() == Data("f".utf8))
    #expect(queue.next() == nil)
    #expect(queue.bufferedBytes == 0)
  }

  @Test func smallPiecesAreJoinedUpToTheLimitAndNeverAcrossARead() {
    var queue = BodyChunkQueue()
    func add(_ text: String) {
      Data(text.utf8).withUnsafeBytes { queue.append($0, joiningUpTo: 5) }
    }
    add("ab")
    add("cd")
    add("e")
    // Past the limit: a new chunk.
    add("fg")
    #expect(queue.bufferedBytes == 7)
    #expect(queue.next() == Data("abcde".utf8))
    // The chunk being joined was read: the next piece starts a chunk of its own.
    #expect(queue.next() == Data("fg".utf8))
    add("h")
    add("i")
    #expect(queue.next() == Data("hi".utf8))
    #expect(queue.next() == nil)
    #expect(queue.bufferedBytes == 0)
    // A chunk queued whole is not joined onto by a later piece past the limit.
    queue.append(Data("jklmn".utf8))
    add("o")
    #expect(queue.next() == Data("jklmn".utf8))
    #expect(queue.next() == Data("o".utf8))
  }

  @Test func theReaderWaitsUntilTheTransferSettlesAndReadsEveryChunkBeforeTheEnd() {
    var queue = BodyChunkQueue()
    #expect(text(queue.take(outcome: nil)) == "wait")
    queue.append(Data("x".utf8))
    #expect(text(queue.take(outcome: .finished)) == "chunk x")
    #expect(text(queue.take(outcome: .finished)) == "end")
    #expect(text(queue.take(outcome: .finished)) == "end")
  }

  @Test func aFailedTransferFailsTheReaderOnceItsQueueIsEmpty() {
    var queue = BodyChunkQueue()
    queue.append(Data("kept".utf8))
    queue.append(Data("dropped".utf8))
    #expect(text(queue.take(outcome: .failed(Failure()))) == "chunk kept")
    #expect(queue.removeAll() == 7)
    #expect(queue.bufferedBytes == 0)
    #expect(text(queue.take(outcome: .failed(Failure()))) == "failure true")
  }

  @Test func largePiecesAreBuiltInPooledBuffersAndReachTheReaderWhole() {
    var queue = BodyChunkQueue()
    let piece = Data((0..<16).map { UInt8($0) })
    // An eighth of the limit or more starts a pooled chunk; later pieces fill it.
    for _ in 0..<4 { piece.withUnsafeBytes { queue.append($0, joiningUpTo: 64) } }
    piece.withUnsafeBytes { queue.append($0, joiningUpTo: 64) }
    #expect(queue.bufferedBytes == 80)
    #expect(queue.next() == Data(repeatElement(piece, count: 4).joined()))
    // The fifth piece did not fit: it started the next chunk, read only once it is its turn.
    #expect(queue.next() == piece)
    #expect(queue.next() == nil)
    #expect(queue.bufferedBytes == 0)
    // A whole chunk queued after a chunk being filled comes out after it.
    piece.withUnsafeBytes { queue.append($0, joiningUpTo: 64) }
    queue.append(Data("whole".utf8))
    #expect(queue.next() == piece)
    #expect(queue.next() == Data("whole".utf8))
  }

  @Test func aPieceLargerThanTheLimitIsQueuedWholeAfterTheChunkBeingFilled() {
    var queue = BodyChunkQueue()
    let small = Data(repeating: 1, count: 16)
    let large = Data(repeating: 2, count: 100)
    small.withUnsafeBytes { queue.append($0, joiningUpTo: 64) }
    large.withUnsafeBytes { queue.append($0, joiningUpTo: 64) }
    small.withUnsafeBytes { queue.append($0, joiningUpTo: 64) }
    #expect(queue.bufferedBytes == 132)
    #expect(queue.next() == small)
    #expect(queue.next() == large)
    #expect(queue.next() == small)
    #expect(queue.next() == nil)
  }

  @Test func aBurstOfChunksLeavesEveryBufferForTheNextBurst() {
    // Eight chunks wait for a reader that fell behind (a transfer's buffer limit of 1 MiB holds
    // about as many 256 KiB chunks), then the reader catches up: the next burst finds all eight
    // buffers mapped, not four of them and fresh pages for the rest.
    var queue = BodyChunkQueue()
    let piece = Data(repeating: 3, count: 64)
    for _ in 0..<2 {
      for _ in 0..<8 { piece.withUnsafeBytes { queue.append($0, joiningUpTo: 64) } }
      var read = 0
      while let chunk = queue.next() {
        #expect(chunk == piece)
        read += 1
      }
      #expect(read == 8)
      #expect(queue.idleBuffers == 8)
    }
  }

  @Test func aPoolReusesABufferOnceItsDataIsDroppedAndKeepsNoMoreThanItRetains() {
    let pool = ChunkBufferPool(capacity: 64, retaining: 1)
    let first = pool.take()
    first.initializeMemory(as: UInt8.self, repeating: 7, count: 64)
    var data: Data? = pool.data(handingOver: first, count: 32)
    #expect(data == Data(repeating: 7, count: 32))
    // Handed over without a copy: the buffer is the chunk's until the chunk is dropped.
    #expect(data?.withUnsafeBytes { $0.baseAddress } == UnsafeRawPointer(first))
    data = nil
    #expect(pool.take() == first)
    // Less than a quarter of the buffer is copied, and the buffer is free again at once.
    let small = pool.data(handingOver: first, count: 8)
    #expect(small == Data(repeating: 7, count: 8))
    #expect(small.withUnsafeBytes { $0.baseAddress } != UnsafeRawPointer(first))
    #expect(pool.take() == first)
    // Past the retained count, a recycled buffer is freed rather than kept.
    let second = pool.take()
    pool.recycle(first)
    pool.recycle(second)
    #expect(pool.take() == first)
    pool.recycle(first)
  }
}
