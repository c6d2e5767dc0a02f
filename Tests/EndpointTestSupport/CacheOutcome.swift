import EndpointCore

/// How the cache served a response, one name for each row of the `Cache-Status` table, read from
/// ``CacheStatus``'s flags so a test can compare a whole sequence at once.
public enum CacheOutcome: Sendable, Hashable {
  case hit, revalidated, miss, stale
}

extension CacheStatus {
  /// The flags read as one outcome.
  public var outcome: CacheOutcome {
    if isStale { return .stale }
    if isHit { return .hit }
    return isRevalidated ? .revalidated : .miss
  }
}
