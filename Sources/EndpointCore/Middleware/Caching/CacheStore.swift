/// Where ``CacheMiddleware`` keeps responses: a small key–value store of the stored variants of
/// each URL.
///
/// The key is the request's URL without its fragment; the value is every variant stored for
/// it (several when the response has `Vary`). A store may forget anything at any time: the
/// middleware then treats the request as a miss. Errors a store throws are treated the same
/// way, so a full disk or an unreadable entry never fails a request.
///
/// ``CacheMiddleware/memoryStore(limit:)`` keeps entries in memory and
/// ``CacheMiddleware/diskStore(directory:limit:)`` in a directory; both evict the least recently
/// used entries past a limit in bytes.
public protocol CacheStore: Sendable {
  /// The variants stored for `key`, oldest first; empty when there is none.
  func entries(for key: String) async throws -> [CachedResponse]

  /// Replaces the variants stored for `key` with `entries`; an empty list removes the key.
  func setEntries(_ entries: [CachedResponse], for key: String) async throws

  /// Forgets every variant stored for `key`.
  func removeEntries(for key: String) async throws

  /// Forgets everything, as an app does when its user signs out.
  func removeAll() async throws
}
