/// How ``CacheMiddleware`` served a response, as it writes it in the RFC 9211 `Cache-Status`
/// field (`Cache-Status: Endpoint; hit; ttl=42`).
///
/// Read it from any response that passed the middleware, in code or in a log of its fields:
///
/// ```swift
/// let (response, body) = try await client.send(request)
/// if response.cacheStatus?.isHit == true { print("served from the cache") }
/// ```
public struct CacheStatus: Sendable, Hashable, CustomStringConvertible {
  /// The cache's name in `Cache-Status`.
  public static let cacheName = "Endpoint"

  /// How the response was served, as the middleware says it.
  enum Outcome: Sendable, Hashable {
    /// From the cache, fresh, without the network.
    case hit
    /// From the cache after the server confirmed it with a `304`.
    case revalidated
    /// From the network: nothing usable was stored (or the request asked for the network).
    case miss
    /// From the cache, stale: the request allowed it (`max-stale`), or the response did
    /// (`stale-while-revalidate`, `stale-if-error`).
    case stale
  }

  /// Whether the response came from the cache (RFC 9211 `hit`): fresh without the network, or
  /// stale (``isStale``). A response that did not is from the network, and was revalidated
  /// when ``forwardStatus`` is `304` (``isRevalidated``).
  public var isHit: Bool
  /// Whether the response came from the cache past its freshness, as the request
  /// (`max-stale`) or the response (`stale-while-revalidate`, `stale-if-error`) allowed; such a
  /// response is also a hit.
  public var isStale: Bool
  /// Seconds of freshness left when served from the cache; negative when stale.
  public var timeToLive: Int?
  /// Why the request went to the network (`uri-miss`, `vary-miss`, `stale`, `request`,
  /// `method`), when it did.
  public var forwardReason: String?
  /// The status the network answered with, when the request went there.
  public var forwardStatus: Int?
  /// Whether the network's response is being stored.
  public var isStored: Bool

  /// Whether the response came from the cache after the server confirmed it with a `304`.
  public var isRevalidated: Bool { !isHit && forwardStatus == 304 }

  /// Creates a status.
  ///
  /// - Parameters:
  ///   - isHit: whether the response came from the cache.
  ///   - isStale: whether it came from the cache past its freshness; implies `isHit`.
  ///   - timeToLive: seconds of freshness left, negative when stale.
  ///   - forwardReason: why the request went to the network.
  ///   - forwardStatus: the status the network answered with.
  ///   - isStored: whether the network's response is being stored.
  public init(
    isHit: Bool = false,
    isStale: Bool = false,
    timeToLive: Int? = nil,
    forwardReason: String? = nil,
    forwardStatus: Int? = nil,
    isStored: Bool = false
  ) {
    self.isHit = isHit || isStale
    self.isStale = isStale
    self.timeToLive = timeToLive
    self.forwardReason = forwardReason
    self.forwardStatus = forwardStatus
    self.isStored = isStored
  }

  /// A status for a response served as `outcome` says.
  init(
    _ outcome: Outcome,
    timeToLive: Int? = nil,
    forwardReason: String? = nil,
    forwardStatus: Int? = nil,
    isStored: Bool = false
  ) {
    self.init(
      isHit: outcome == .hit, isStale: outcome == .stale, timeToLive: timeToLive,
      forwardReason: forwardReason, forwardStatus: forwardStatus, isStored: isStored)
  }

  /// The status in the last `Cache-Status` member named ``cacheName`` of `response`, or `nil`.
  public init?(_ response: HTTPResponse) {
    let members = response.headerFields.values(for: "Cache-Status")
      .flatMap { $0.split(separator: ",") }
    guard
      let member = members.last(where: {
        $0.split(separator: ";").first?.trimmed(" \t") == Self.cacheName[...]
      })
    else { return nil }
    var hit = false
    var parameters: [String: String] = [:]
    for parameter in member.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(pair[0].trimmed(" \t"))
      if pair.count == 2 {
        parameters[name] = String(pair[1].trimmed(" \t\""))
      } else if name == "hit" {
        hit = true
      } else {
        parameters[name] = ""
      }
    }
    timeToLive = parameters["ttl"].flatMap { Int($0) }
    forwardReason = parameters["fwd"]
    forwardStatus = parameters["fwd-status"].flatMap { Int($0) }
    isStored = parameters["stored"] != nil
    isStale = parameters["detail"] == "stale"
    isHit = hit || isStale
  }

  /// The `Cache-Status` member: `Endpoint; hit; ttl=42`.
  public var description: String {
    var parts = [Self.cacheName]
    if isHit { parts.append("hit") }
    if let forwardReason { parts.append("fwd=\(forwardReason)") }
    if let forwardStatus { parts.append("fwd-status=\(forwardStatus)") }
    if let timeToLive { parts.append("ttl=\(timeToLive)") }
    if isStored { parts.append("stored") }
    if isStale { parts.append("detail=stale") }
    return parts.joined(separator: "; ")
  }
}
