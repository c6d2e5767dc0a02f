import EndpointPrimitives
import Synchronization

/// A ``CacheStore`` in memory, bounded in bytes: past the limit the least recently used keys
/// are evicted (see ``CacheMiddleware/memoryStore(limit:)``).
final class MemoryCacheStore: CacheStore {
  private struct Slot {
    var entries: [CachedResponse]
    var size: Int
    var lastUse: UInt64
  }

  private struct State {
    var slots: [String: Slot] = [:]
    var size = 0
    var tick: UInt64 = 0
    /// Every use in order, oldest first; a use later superseded is skipped when it comes up,
    /// so eviction costs O(1) amortised instead of a scan of every key.
    var uses: [(key: String, tick: UInt64)] = []
    var usesStart = 0

    /// Records a use of `key` (its slot, when there is one, takes the new tick).
    mutating func use(_ key: String) -> UInt64 {
      tick += 1
      uses.append((key, tick))
      slots[key]?.lastUse = tick
      // Superseded and consumed uses are dropped once they outnumber the live ones; what is
      // kept is at most one use per key, so the work is O(1) amortised.
      if uses.count > 2 * slots.count + 16 {
        let current = tick
        uses = uses[usesStart...].filter {
          slots[$0.key]?.lastUse == $0.tick || $0.tick == current
        }
        usesStart = 0
      }
      return tick
    }

    /// Evicts the least recently used key; `false` when there is none.
    mutating func evictOldest() -> Bool {
      while usesStart < uses.count {
        let use = uses[usesStart]
        usesStart += 1
        if let slot = slots[use.key], slot.lastUse == use.tick {
          slots[use.key] = nil
          size -= slot.size
          return true
        }
      }
      return false
    }
  }

  /// The most bytes the store holds (as ``CachedResponse/size`` counts them).
  let limit: Int
  private let state = Mutex(State())

  /// Creates an empty store.
  ///
  /// - Parameter limit: the most bytes held; 10 MiB unless given.
  init(limit: Int = 10 * 1024 * 1024) {
    self.limit = max(0, limit)
  }

  /// The bytes held now.
  var size: Int { state.withVisibleLock { $0.size } }

  /// How many uses the eviction order holds, superseded ones included (for tests).
  var recordedUses: Int { state.withVisibleLock { $0.uses.count - $0.usesStart } }

  /// The variants stored for `key`, which becomes the most recently used.
  func entries(for key: String) -> [CachedResponse] {
    state.withVisibleLock { state in
      guard let slot = state.slots[key] else { return [] }
      _ = state.use(key)
      return slot.entries
    }
  }

  /// Replaces the variants for `key`, then evicts the least recently used keys past the limit;
  /// a list larger than the whole limit is not stored.
  func setEntries(_ entries: [CachedResponse], for key: String) {
    let size = entries.reduce(key.utf8.count) { $0 + $1.size }
    state.withVisibleLock { state in
      if let old = state.slots.removeValue(forKey: key) { state.size -= old.size }
      guard !entries.isEmpty, size <= limit else { return }
      let tick = state.use(key)
      state.slots[key] = Slot(entries: entries, size: size, lastUse: tick)
      state.size += size
      while state.size > limit, state.evictOldest() {}
    }
  }

  /// Forgets every key.
  func removeAll() {
    state.withVisibleLock { $0 = State() }
  }

  /// Forgets `key`.
  func removeEntries(for key: String) {
    state.withVisibleLock { state in
      if let old = state.slots.removeValue(forKey: key) { state.size -= old.size }
    }
  }
}
