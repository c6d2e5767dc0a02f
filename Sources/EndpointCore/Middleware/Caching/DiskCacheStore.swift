import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A ``CacheStore`` in a directory, bounded in bytes, that survives a restart (see
/// ``CacheMiddleware/diskStore(directory:limit:)``).
///
/// Each URL's variants are one file, written atomically (a new file renamed over the old), so
/// a crash leaves the old entry or the new one, never half of one. Each file carries a
/// checksum: a file that is truncated, corrupt or not the store's own is a miss, and is
/// removed. Past ``limit`` the least recently used files are deleted. No URL is written with
/// its user information or secret query values.
final class DiskCacheStore: CacheStore {
  private struct FileInfo {
    var size: Int
    var lastUse: UInt64
  }

  private struct State {
    var files: [String: FileInfo] = [:]
    var size = 0
    var tick: UInt64 = 0
  }

  /// The directory holding the entries.
  let directory: URL
  /// The most bytes the entry files take together.
  let limit: Int
  private let state: Mutex<State>

  /// Opens the store in `directory`, creating it when needed; entries already there are kept.
  ///
  /// - Parameters:
  ///   - directory: the store's own directory; files in it that are not entries are left alone.
  ///   - limit: the most bytes the entry files take together; 50 MiB unless given.
  /// - Throws: the file system's error when the directory cannot be created or read.
  init(directory: URL, limit: Int = 50 * 1024 * 1024) throws {
    self.directory = directory
    self.limit = max(0, limit)
    let manager = FileManager.default
    try manager.createDirectory(at: directory, withIntermediateDirectories: true)
    var found: [(name: String, size: Int, modified: Date)] = []
    for name in try manager.contentsOfDirectory(atPath: directory.path)
    where name.hasSuffix(Self.suffix) {
      let path = directory.appending(path: name).path
      guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
      let size =
        (attributes[.size] as? Int) ?? (attributes[.size] as? UInt64).map { Int($0) }
        ?? (attributes[.size] as? Int64).map { Int($0) } ?? 0
      let modified = attributes[.modificationDate] as? Date ?? .distantPast
      found.append((name, size, modified))
    }
    var state = State()
    for file in found.sorted(by: { $0.modified < $1.modified }) {
      state.tick += 1
      state.files[file.name] = FileInfo(size: file.size, lastUse: state.tick)
      state.size += file.size
    }
    self.state = Mutex(state)
  }

  /// The bytes the entry files take now.
  var size: Int { state.withVisibleLock { $0.size } }

  /// The variants stored for `key`; an unreadable file is removed and reads as none.
  func entries(for key: String) -> [CachedResponse] {
    let name = Self.fileName(for: key)
    let url = directory.appending(path: name)
    return state.withVisibleLock { state in
      guard state.files[name] != nil else { return [] }
      guard let data = try? Data(contentsOf: url),
        let entries = DiskCacheFile.decode(data, key: key)
      else {
        remove(name, in: &state)
        return []
      }
      state.tick += 1
      state.files[name]?.lastUse = state.tick
      // The file's date keeps the order of use across restarts.
      try? FileManager.default.setAttributes(
        [.modificationDate: Date()], ofItemAtPath: url.path)
      return entries
    }
  }

  /// Writes the variants for `key` atomically, then deletes the least recently used files past
  /// the limit; a file larger than the whole limit is not written.
  ///
  /// - Throws: the file system's error when the file cannot be written.
  func setEntries(_ entries: [CachedResponse], for key: String) throws {
    let name = Self.fileName(for: key)
    guard !entries.isEmpty else {
      state.withVisibleLock { remove(name, in: &$0) }
      return
    }
    let data = DiskCacheFile.encode(entries, key: key)
    try state.withVisibleLock { state in
      remove(name, in: &state)
      guard data.count <= limit else { return }
      try data.write(to: directory.appending(path: name), options: .atomic)
      state.tick += 1
      state.files[name] = FileInfo(size: data.count, lastUse: state.tick)
      state.size += data.count
      while state.size > limit,
        let oldest = state.files.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        remove(oldest.key, in: &state)
      }
    }
  }

  /// Deletes the file of `key`.
  func removeEntries(for key: String) {
    let name = Self.fileName(for: key)
    state.withVisibleLock { remove(name, in: &$0) }
  }

  /// Deletes every entry file.
  func removeAll() {
    state.withVisibleLock { state in
      for name in Array(state.files.keys) { remove(name, in: &state) }
    }
  }

  private func remove(_ name: String, in state: inout State) {
    if let info = state.files.removeValue(forKey: name) { state.size -= info.size }
    try? FileManager.default.removeItem(at: directory.appending(path: name))
  }

  private static let suffix = ".cache"

  /// The file of `key`: a hash of it (the file repeats the key, so a collision is a miss).
  static func fileName(for key: String) -> String {
    let hash = DiskCacheFile.fnv1a(Data(key.utf8))
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex + suffix
  }
}
