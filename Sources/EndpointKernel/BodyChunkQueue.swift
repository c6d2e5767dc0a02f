import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The unread chunks of a streamed response body, in the order they arrived, and what its reader
/// gets next: both transports queue the chunks that arrive ahead of the reader here, under their
/// transfer's lock, and hand a chunk straight to a reader that already waits.
package struct BodyChunkQueue: Sendable {
  /// What the reader gets next.
  package enum Take {
    case chunk(Data)
    /// The body ended and every chunk was read.
    case end
    /// The transfer failed; chunks queued before the failure were dropped with it.
    case failure(any Error)
    /// Nothing yet: the reader waits for the next chunk or the transfer's end.
    case wait
  }

  /// The bytes queued and not yet read.
  package private(set) var bufferedBytes = 0
  private var chunks: [Data] = []
  private var index = 0
  /// The chunk being filled from a pooled buffer, after every chunk in `chunks`.
  private var open: OpenChunk?
  /// The buffers of ``append(_:joiningUpTo:)``, made with the first joined chunk.
  private var pool: ChunkBufferPool?

  package init() {}

  package mutating func append(_ chunk: Data) {
    sealOpenChunk()
    chunks.append(chunk)
    bufferedBytes += chunk.count
  }

  /// Queues a copy of `bytes`, joined to the last unread chunk while that stays within `limit`
  /// bytes, so a burst of small pieces reaches the reader as a few large chunks.
  ///
  /// Joined chunks, and pieces of at least an eighth of `limit`, are built in buffers of `limit`
  /// bytes from a ``ChunkBufferPool`` and reach the reader without another copy; the buffers
  /// are reused once the reader drops its chunks. A lone small piece is copied as it is.
  package mutating func append(_ bytes: UnsafeRawBufferPointer, joiningUpTo limit: Int) {
    guard !bytes.isEmpty else { return }
    bufferedBytes += bytes.count
    if let open, open.room >= bytes.count {
      open.append(bytes)
      return
    }
    sealOpenChunk()
    let last = chunks.count - 1
    let joinsLast = last >= index && chunks[last].count + bytes.count <= limit
    // A piece larger than a buffer is queued as it is.
    guard joinsLast || (bytes.count >= limit / 8 && bytes.count <= limit) else {
      chunks.append(Data(bytes))
      return
    }
    let chunk = OpenChunk(pool: pool(ofCapacity: limit))
    if joinsLast {
      chunks.removeLast().withUnsafeBytes { chunk.append($0) }
    }
    chunk.append(bytes)
    open = chunk
  }

  /// The pooled buffers waiting for reuse, none before the first joined chunk.
  package var idleBuffers: Int { pool?.idleBuffers ?? 0 }

  /// The pool for buffers of `capacity` bytes (a queue keeps one size).
  private mutating func pool(ofCapacity capacity: Int) -> ChunkBufferPool {
    if let pool, pool.capacity == capacity { return pool }
    // A pool holds only buffers that were out at once, so it keeps every buffer of a burst (the
    // chunks that wait up to the transfer's buffer limit, the reader's, the one being filled):
    // keeping four left the rest of each burst to fresh pages, about 7,000 page faults in a
    // streamed gigabyte. Past 16 buffers, the rest is freed.
    let made = ChunkBufferPool(capacity: capacity, retaining: 16)
    pool = made
    return made
  }

  /// Moves the chunk being filled, if any, to the end of `chunks`.
  private mutating func sealOpenChunk() {
    guard let open else { return }
    self.open = nil
    chunks.append(open.seal())
  }

  /// The oldest unread chunk, if there is one.
  package mutating func next() -> Data? {
    guard index < chunks.count else {
      guard let open else { return nil }
      self.open = nil
      bufferedBytes -= open.count
      return open.seal()
    }
    let chunk = chunks[index]
    index += 1
    bufferedBytes -= chunk.count
    if index == chunks.count {
      chunks.removeAll(keepingCapacity: true)
      index = 0
    }
    return chunk
  }

  /// Drops every unread chunk; returns how many bytes were dropped.
  @discardableResult
  package mutating func removeAll() -> Int {
    let dropped = bufferedBytes
    chunks = []
    index = 0
    open = nil
    bufferedBytes = 0
    return dropped
  }

  /// The reader's next step: the oldest unread chunk; when none is left, the end or the failure
  /// of a settled transfer (`outcome`), else a wait.
  package mutating func take(outcome: TransferOutcome?) -> Take {
    if let chunk = next() { return .chunk(chunk) }
    switch outcome {
    case .finished: return .end
    case .failed(let error): return .failure(error)
    case nil: return .wait
    }
  }
}
