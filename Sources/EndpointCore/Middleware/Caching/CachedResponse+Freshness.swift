import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CachedResponse {
  /// The statuses RFC 9110 §15.1 makes heuristically cacheable, less `206` (ranges are never
  /// stored).
  static let heuristicallyCacheable: Set<Int> = [
    200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501,
  ]

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
  func freshnessLifetime(heuristicLimit: Double) -> Double {
    let control = cacheControl
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
    return sinceModified > 0 ? min(sinceModified / 10, heuristicLimit) : 0
  }

  /// The response's age at `now`, in seconds (RFC 9111 §4.2.3): the corrected initial age (the
  /// larger of the apparent age and `Age` plus the response delay) plus the time it has been
  /// stored.
  func currentAge(at now: Date) -> Double {
    let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
    let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
    let ageValue = headerFields.firstValue(for: "Age").flatMap { text -> Double? in
      let text = text.trimmed(" \t")
      guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
        return nil
      }
      // RFC 9111 §1.2.2: a value too large to hold counts as 2³¹.
      return min(Double(text) ?? 2_147_483_648, 2_147_483_648)
    }
    let correctedInitialAge = max(apparentAge, (ageValue ?? 0) + responseDelay)
    return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
  }

  /// The validators a conditional request can carry: the entity tag and `Last-Modified`.
  var eTag: String? { headerFields.firstValue(for: "ETag") }

  /// The `Last-Modified` field, as sent.
  var lastModified: String? { headerFields.firstValue(for: "Last-Modified") }

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
  func updated(with notModified: HTTPResponse, requestTime: Date, responseTime: Date) -> Self {
    var entry = self
    let kept: Set<String> = [
      "content-length", "content-encoding", "content-range", "transfer-encoding", "connection",
      "keep-alive", "cache-status",
    ]
    var replaced: Set<String> = []
    for field in notModified.headerFields {
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
