#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A stored response's age and freshness at one instant.
struct CacheLookup {
  /// The current age, in seconds.
  let age: Double
  /// The freshness lifetime, in seconds.
  let lifetime: Double
  /// The stored response's `Cache-Control`, read once per lookup.
  let control: CacheControl

  init(entry: CachedResponse, now: Date, heuristicLimit: Duration) {
    let limit = Double(heuristicLimit.components.seconds)
    control = entry.cacheControl
    age = entry.currentAge(at: now)
    lifetime = entry.freshnessLifetime(heuristicLimit: limit, control: control)
  }

  /// Whether the response is still fresh.
  var isFresh: Bool { lifetime > age }
  /// Seconds of freshness left; negative when stale.
  var remaining: Double { lifetime - age }
  /// Seconds since the response became stale; zero while fresh.
  var staleness: Double { max(0, age - lifetime) }
}
