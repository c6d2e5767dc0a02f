import Synchronization

/// A ``CacheStore`` in memory, bounded in bytes: past the limit the least recently used keys
/// are evicted.
///
/// ```swift
/// let client = transport.with(CacheMiddleware(store: MemoryCacheStore(limit: 16 << 20)))
/// ```
public final class MemoryCacheStore: CacheStore {
  private struct Slot {
    var entries: [CachedResponse]
    var size: Int
    var lastUse: UInt64
  }

  private struct State {
    var slots: [String: Slot] = [:]
    var size = 0
    var tick: UInt64 = 0
  }

  /// The most bytes the store holds (as ``CachedResponse/size`` counts them).
  public let limit: Int
  private let state = Mutex(State())

  /// Creates an empty store.
  ///
  /// - Parameter limit: the most bytes held; 10 MiB unless given.
  public init(limit: Int = 10 * 1024 * 1024) {
    self.limit = max(0, limit)
  }

  /// The bytes held now.
  public var size: Int { state.withLock { $0.size } }

  /// The variants stored for `key`, which becomes the most recently used.
  public func entries(for key: String) -> [CachedResponse] {
    state.withLock { state in
      guard var slot = state.slots[key] else { return [] }
      state.tick += 1
      slot.lastUse = state.tick
      state.slots[key] = slot
      return slot.entries
    }
  }

  /// Replaces the variants for `key`, then evicts the least recently used keys past the limit;
  /// a list larger than the whole limit is not stored.
  public func setEntries(_ entries: [CachedResponse], for key: String) {
    let size = entries.reduce(key.utf8.count) { $0 + $1.size }
    state.withLock { state in
      if let old = state.slots.removeValue(forKey: key) { state.size -= old.size }
      guard !entries.isEmpty, size <= limit else { return }
      state.tick += 1
      state.slots[key] = Slot(entries: entries, size: size, lastUse: state.tick)
      state.size += size
      while state.size > limit,
        let oldest = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        state.slots[oldest.key] = nil
        state.size -= oldest.value.size
      }
    }
  }

  /// Forgets every key.
  public func removeAll() {
    state.withLock { $0 = State() }
  }

  /// Forgets `key`.
  public func removeEntries(for key: String) {
    state.withLock { state in
      if let old = state.slots.removeValue(forKey: key) { state.size -= old.size }
    }
  }
}
