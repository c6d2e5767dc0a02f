import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Buffers of one size for the chunks of a streamed response body, used again once their reader
/// drops them.
///
/// A chunk is handed to the reader as `Data` over a pooled buffer, without a copy; when the
/// reader drops it, the buffer comes back here. A large body then reuses a few buffers whose
/// pages are already mapped, where a new allocation per chunk cost a page fault per 4 KiB
/// (about a fifth of the CPU time of a streamed gigabyte, measured with `perf`).
package final class ChunkBufferPool: Sendable {
  /// The size of every buffer, in bytes.
  package let capacity: Int
  private let retained: Int
  /// The addresses of the buffers waiting for reuse.
  private let free: Mutex<[UInt]>

  /// A pool of buffers of `capacity` bytes that keeps up to `retaining` of them for reuse.
  package init(capacity: Int, retaining: Int) {
    self.capacity = max(1, capacity)
    self.retained = max(0, retaining)
    free = Mutex([])
  }

  deinit {
    free.withLock { buffers in
      for address in buffers { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
      buffers = []
    }
  }

  /// The buffers waiting for reuse.
  package var idleBuffers: Int { free.withLock { $0.count } }

  /// A buffer of ``capacity`` bytes, reused when one is free.
  package func take() -> UnsafeMutableRawPointer {
    if let address = free.withLock({ $0.popLast() }),
      let buffer = UnsafeMutableRawPointer(bitPattern: address)
    {
      return buffer
    }
    return UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  }

  /// Gives `buffer` back: kept for reuse while fewer than the retained count wait, else freed.
  package func recycle(_ buffer: UnsafeMutableRawPointer) {
    let kept = free.withLock { buffers -> Bool in
      guard buffers.count < retained else { return false }
      buffers.append(UInt(bitPattern: buffer))
      return true
    }
    if !kept { buffer.deallocate() }
  }

  /// The first `count` bytes of `buffer` as `Data`, and `buffer` back to the pool when the
  /// `Data` is dropped. A chunk that fills less than a quarter of its buffer is copied instead
  /// and the buffer is recycled at once, so a reader that keeps chunks holds at most four times
  /// their bytes.
  package func data(handingOver buffer: UnsafeMutableRawPointer, count: Int) -> Data {
    guard count >= capacity / 4, count > 0 else {
      let copy = Data(bytes: buffer, count: count)
      recycle(buffer)
      return copy
    }
    return Data(
      bytesNoCopy: buffer, count: count,
      deallocator: .custom { [self] buffer, _ in
        recycle(buffer)
      })
  }
}

/// A pooled buffer being filled with a body's pieces: the last unread chunk of a
/// ``BodyChunkQueue``. Its buffer goes back to the pool unless it was handed over.
///
/// Only used under the lock of the transfer that owns the queue.
final class OpenChunk: @unchecked Sendable {
  private let pool: ChunkBufferPool
  private var buffer: UnsafeMutableRawPointer?
  private(set) var count = 0

  init(pool: ChunkBufferPool) {
    self.pool = pool
    buffer = pool.take()
  }

  deinit {
    if let buffer { pool.recycle(buffer) }
  }

  /// The bytes still free in the buffer.
  var room: Int { pool.capacity - count }

  /// Copies `bytes` after the bytes already in; the caller checked ``room``.
  func append(_ bytes: UnsafeRawBufferPointer) {
    guard let buffer, let base = bytes.baseAddress, !bytes.isEmpty else { return }
    precondition(bytes.count <= room, "a piece larger than the room left in a pooled chunk")
    (buffer + count).copyMemory(from: base, byteCount: bytes.count)
    count += bytes.count
  }

  /// The bytes as `Data`, handing the buffer over; the chunk is empty afterwards.
  func seal() -> Data {
    guard let buffer else { return Data() }
    self.buffer = nil
    defer { count = 0 }
    return pool.data(handingOver: buffer, count: count)
  }
}
