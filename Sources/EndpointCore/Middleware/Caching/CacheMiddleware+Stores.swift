#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CacheMiddleware {
  /// A store in memory, bounded in bytes: past `limit` the least recently used URLs are
  /// evicted. It forgets everything when the process ends.
  ///
  /// ```swift
  /// let store = CacheMiddleware.memoryStore(limit: 16 << 20)
  /// let client = transport.with(CacheMiddleware(store: store))
  /// ```
  ///
  /// - Parameter limit: the most bytes held (as ``CachedResponse/size`` counts them); 10 MiB
  ///   unless given.
  public static func memoryStore(limit: Int = 10 * 1024 * 1024) -> any CacheStore {
    MemoryCacheStore(limit: limit)
  }

  /// A store in `directory`, bounded in bytes, that survives a restart; entries already there
  /// are kept.
  ///
  /// Each URL's variants are one file, written atomically (a new file renamed over the old), so
  /// a crash leaves the old entry or the new one, never half of one. Each file carries a
  /// checksum: a file that is truncated, corrupt or not the store's own is a miss, and is
  /// removed. Past `limit` the least recently used files are deleted. No URL is written with
  /// its user information or secret query values (``Redaction``'s rule): an entry reads back
  /// under the request's full URL, and one reached through a redirect with that URL redacted.
  /// Bodies and fields are written as received, `Set-Cookie` included: keep the directory in
  /// the app's own caches, and empty it on sign-out.
  ///
  /// ```swift
  /// let caches = FileManager.default.urls(
  ///   for: .cachesDirectory, in: .userDomainMask)[0]
  /// let store = try CacheMiddleware.diskStore(
  ///   directory: caches.appending(path: "api"), limit: 50 << 20)
  /// let client = transport.with(CacheMiddleware(store: store))
  /// ```
  ///
  /// - Parameters:
  ///   - directory: the store's own directory, created when needed; files in it that are not
  ///     entries are left alone.
  ///   - limit: the most bytes the entry files take together; 50 MiB unless given.
  /// - Throws: the file system's error when the directory cannot be created or read.
  public static func diskStore(
    directory: URL,
    limit: Int = 50 * 1024 * 1024
  ) throws -> any CacheStore {
    try DiskCacheStore(directory: directory, limit: limit)
  }
}
