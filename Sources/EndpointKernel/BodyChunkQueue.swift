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
  /// Whether the last chunk was made with room for more pieces (see
  /// ``append(_:joiningUpTo:)``).
  private var lastChunkReserved = false

  package init() {}

  package mutating func append(_ chunk: Data) {
    chunks.append(chunk)
    bufferedBytes += chunk.count
    lastChunkReserved = false
  }

  /// Queues a copy of `bytes`, joined to the last unread chunk while that stays within `limit`
  /// bytes, so a burst of small pieces reaches the reader as a few large chunks. The second
  /// piece joined to a chunk reserves room for `limit` bytes once, so the rest of the burst is
  /// appended without copying the chunk again.
  package mutating func append(_ bytes: UnsafeRawBufferPointer, joiningUpTo limit: Int) {
    bufferedBytes += bytes.count
    let last = chunks.count - 1
    guard last >= index, chunks[last].count + bytes.count <= limit else {
      chunks.append(Data(bytes))
      lastChunkReserved = false
      return
    }
    if lastChunkReserved {
      chunks[last].append(bytes.assumingMemoryBound(to: UInt8.self))
    } else {
      var joined = Data(capacity: limit)
      joined.append(chunks[last])
      joined.append(bytes.assumingMemoryBound(to: UInt8.self))
      chunks[last] = joined
      lastChunkReserved = true
    }
  }

  /// The oldest unread chunk, if there is one.
  package mutating func next() -> Data? {
    guard index < chunks.count else { return nil }
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
    bufferedBytes = 0
    lastChunkReserved = false
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
