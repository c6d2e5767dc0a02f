import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CachedResponse {
  /// The statuses RFC 9110 §15.1 makes heuristically cacheable.
  static let heuristicallyCacheable: Set<Int> = [
    200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501,
  ]

  /// The statuses whose caching rules the cache applies, for `must-understand` (RFC 9111
  /// §5.2.2.3): the heuristically cacheable ones and the redirections it stores with explicit
  /// freshness.
  static let understoodStatuses = heuristicallyCacheable.union([302, 303, 307])

  /// The response's `Cache-Control` directives.
  var cacheControl: CacheControl { CacheControl(headerFields) }

  /// The `Date` field, or the time the response arrived when it has none or an invalid one.
  var dateValue: Date {
    headerFields.firstValue(for: "Date").flatMap(HTTPDate.parse) ?? responseTime
  }

  /// How long the response stays fresh, in seconds (RFC 9111 §4.2.1): `max-age`, else
  /// `Expires` minus `Date`, else a tenth of the time since `Last-Modified`, at most
  /// `heuristicLimit`, for statuses and directives that allow heuristics. `s-maxage` is for
  /// shared caches and ignored.
  func freshnessLifetime(heuristicLimit: Double, control: CacheControl) -> Double {
    if let maxAge = control.seconds("max-age") { return Double(maxAge) }
    let expiresValues = headerFields.values(for: "Expires")
    if !expiresValues.isEmpty {
      // An invalid or repeated Expires means "already expired" (RFC 9111 §5.3).
      guard expiresValues.count == 1, let expires = HTTPDate.parse(expiresValues[0]) else {
        return 0
      }
      return expires.timeIntervalSince(dateValue)
    }
    guard
      Self.heuristicallyCacheable.contains(status) || control.contains("public")
        || control.contains("private"),
      let lastModified = headerFields.firstValue(for: "Last-Modified").flatMap(HTTPDate.parse)
    else { return 0 }
    let sinceModified = dateValue.timeIntervalSince(lastModified)
    // Whole seconds, as every age and lifetime is (RFC 9111 §1.2.2): a `Last-Modified` only
    // seconds old gives no freshness at all rather than a fraction of a second.
    return sinceModified > 0 ? min((sinceModified / 10).rounded(.down), heuristicLimit) : 0
  }

  /// The response's age at `now`, in seconds (RFC 9111 §4.2.3): the corrected initial age (the
  /// larger of the apparent age and `Age` plus the response delay) plus the time it has been
  /// stored.
  func currentAge(at now: Date) -> Double {
    let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
    let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
    let ageValue = Self.ageValue(headerFields)
    let correctedInitialAge = max(apparentAge, (ageValue ?? 0) + responseDelay)
    return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
  }

  /// The `Age` of `fields` in seconds (RFC 9111 §5.1): of a list (`Age: 7200, 0`, or two
  /// `Age` lines) the first member counts. A member that is not a plain number (`7200abc`,
  /// `-5`, `1.5`) is read as 2³¹, the largest age: the RFC lets a cache ignore such a field,
  /// but ignoring it could serve as fresh a response its sender said was old, so the response
  /// is served only after validation instead. A number too large to hold counts as 2³¹
  /// (§1.2.2).
  static func ageValue(_ fields: HTTPFields) -> Double? {
    let values = fields.values(for: "Age")
    guard !values.isEmpty else { return nil }
    let first = values.lazy.flatMap { $0.split(separator: ",") }
      .map { $0.trimmed(" \t") }.first { !$0.isEmpty }
    guard let first else { return nil }
    guard first.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return 2_147_483_648 }
    return min(Double(first) ?? 2_147_483_648, 2_147_483_648)
  }

  /// The entity tag a conditional request can carry, when the stored one is a valid
  /// `entity-tag` (RFC 9110 §8.8.3): an unquoted `ETag` is no validator.
  var eTag: String? {
    headerFields.firstValue(for: "ETag").flatMap { EntityTag($0) == nil ? nil : $0 }
  }

  /// The `Last-Modified` field, as sent, when it is a valid HTTP date.
  var lastModified: String? {
    headerFields.firstValue(for: "Last-Modified").flatMap {
      HTTPDate.parse($0) == nil ? nil : $0
    }
  }

  /// Whether a `304` with `fields` updates this stored response (RFC 9111 §4.3.4): a strong
  /// entity tag selects a stored response with the same strong tag; a weak one, a stored
  /// response whose tag matches it by weak comparison; without an entity tag, `Last-Modified`
  /// must name the same time. A `304` with no validator at all answers the conditional request
  /// the cache built from this response's validators alone, so it selects it.
  func isSelected(byNotModified fields: HTTPFields) -> Bool {
    if let value = fields.firstValue(for: "ETag") {
      guard let received = EntityTag(value),
        let stored = headerFields.firstValue(for: "ETag").flatMap(EntityTag.init)
      else { return false }
      return received.isWeak ? received.matchesWeakly(stored) : received.matchesStrongly(stored)
    }
    if let value = fields.firstValue(for: "Last-Modified") {
      guard let received = HTTPDate.parse(value),
        let stored = headerFields.firstValue(for: "Last-Modified").flatMap(HTTPDate.parse)
      else { return false }
      return received == stored
    }
    return true
  }

  /// Whether a `200` to a `HEAD` describes the same representation as this stored `GET`
  /// response (RFC 9111 §4.3.5): its entity tag, `Last-Modified` and `Content-Length`, where
  /// either has them, are the same.
  func isDescribed(byHead fields: HTTPFields) -> Bool {
    for name in ["ETag", "Last-Modified", "Content-Length"] {
      let received = fields.firstValue(for: name)
      let stored = headerFields.firstValue(for: name)
      if received != nil || stored != nil, received != stored { return false }
    }
    return true
  }

  /// The fields a cache keeps of a response's `fields` (RFC 9111 §3.1): without `Connection`
  /// and the fields it lists, the other hop-by-hop fields (`Keep-Alive`, `Proxy-Connection`,
  /// `TE`, `Transfer-Encoding`, `Upgrade`, RFC 9110 §7.6.1), the proxy's own fields
  /// (`Proxy-Authenticate`, `Proxy-Authentication-Info`, `Proxy-Authorization`), and the
  /// fields a qualified `no-cache="…"` names (§5.2.2.4). `Set-Cookie` is kept: this is a
  /// private cache.
  static func storableFields(_ fields: HTTPFields, control: CacheControl) -> HTTPFields {
    var dropped = hopByHop.union(control.noCacheFields)
    for value in fields.values(for: "Connection") {
      for name in value.split(separator: ",") {
        dropped.insert(name.trimmed(" \t").lowercased())
      }
    }
    guard fields.contains(where: { dropped.contains($0.name.lowercased()) }) else {
      return fields
    }
    var kept = HTTPFields()
    for field in fields where !dropped.contains(field.name.lowercased()) {
      kept.append(checkedValue: field.value, for: field.name)
    }
    return kept
  }

  /// The fields no cache stores or serves.
  static let hopByHop: Set<String> = [
    "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
    "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
  ]

  /// Whether `request` selects this variant: every field `Vary` names has the same value in
  /// the request as in the one that stored it; `Vary: *` never matches (RFC 9111 §4.1).
  func matches(_ request: HTTPRequest) -> Bool {
    for name in Self.varyNames(headerFields) {
      if name == "*" { return false }
      if Self.varyValue(request.headerFields, name) != varyValues[name] { return false }
    }
    return true
  }

  /// The lowercased field names of every `Vary` field.
  static func varyNames(_ fields: HTTPFields) -> [String] {
    fields.values(for: "Vary").flatMap { $0.split(separator: ",") }
      .map { $0.trimmed(" \t").lowercased() }.filter { !$0.isEmpty }
  }

  /// What the store keeps of the request's `name` fields for `Vary`: the values joined, with
  /// whitespace around each removed (so `gzip,br` and `gzip, br` compare equal); for a
  /// credential (`Authorization`, `Cookie`, as ``Redaction/isSecretHeaderName(_:)`` says) a
  /// hash of it, so no credential is written to a store.
  static func varyValue(_ fields: HTTPFields, _ name: String) -> String? {
    let values = fields.values(for: name)
    guard !values.isEmpty else { return nil }
    let value = values.flatMap { $0.split(separator: ",") }.map { String($0.trimmed(" \t")) }
      .joined(separator: ",")
    guard Redaction.isSecretHeaderName(name) else { return value }
    return "#" + String(DiskCacheFile.fnv1a(Data(value.utf8)), radix: 16)
  }

  /// The entry after a `304`: the new fields replace stored ones of the same name (RFC 9111
  /// §3.2), except the framing fields, which describe the stored body.
  /// A `304` without `Date` or `Age` leaves no stored one behind: both describe the response
  /// that was validated, and the stored ones would make the validated response look as old as
  /// the first.
  func updated(with notModified: HTTPResponse, requestTime: Date, responseTime: Date) -> Self {
    var entry = self
    let kept: Set<String> = [
      "content-length", "content-encoding", "content-range", "cache-status",
    ]
    let received = Self.storableFields(
      notModified.headerFields, control: CacheControl(notModified.headerFields))
    entry.headerFields = Self.storableFields(headerFields, control: CacheControl(headerFields))
    entry.headerFields.remove("Age")
    if !received.contains("Date") { entry.headerFields.remove("Date") }
    var replaced: Set<String> = []
    for field in received {
      let name = field.name.lowercased()
      guard !kept.contains(name) else { continue }
      if replaced.insert(name).inserted { entry.headerFields.remove(field.name) }
      entry.headerFields.append(checkedValue: field.value, for: field.name)
    }
    entry.requestTime = requestTime
    entry.responseTime = responseTime
    return entry
  }
}
