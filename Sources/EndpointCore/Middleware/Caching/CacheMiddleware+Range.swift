#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CacheMiddleware {
  /// Answers a `GET` with `Range` (RFC 9110 §14.2, §15.3.7; RFC 9111 §3.3): one byte range
  /// that a fresh stored `200`, or a fresh stored `206` holding all of it, covers is a `206`
  /// from the store, with its `Content-Range` and `Content-Length`. An `If-Range` lets the
  /// store answer only when its entity tag is strong and is the stored response's (strong
  /// comparison); otherwise, and for a range the store does not hold, the request goes to the
  /// network as it is and a `200` or `206` answer is stored. Several ranges, another unit or a
  /// range that cannot be read go to the network untouched and nothing of them is stored.
  func answerRange(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
    let fields = request.headerFields
    let rangeValues = fields.values(for: "Range")
    // A request the store never answers: forwarding it untouched is always allowed.
    guard Self.byteRange(rangeValues, length: .max) != nil else {
      return try await forwardAsked(request, next: next)
    }
    let control = CacheControl(fields, isRequest: true)
    let key = Self.key(request.url)
    let entries = (try? await store.entries(for: key)) ?? []
    let variants = entries.filter { $0.matches(request) }
    let ifRange = fields.values(for: "If-Range")
    var reason = entries.isEmpty ? "uri-miss" : variants.isEmpty ? "vary-miss" : "partial"
    // Complete responses first: they cover every range.
    for entry in variants.filter({ !$0.isPartial }) + variants.filter(\.isPartial) {
      guard ifRange.isEmpty || entry.isStronglyMatched(byIfRange: ifRange) else {
        reason = "request"
        continue
      }
      guard let held = entry.heldBytes, !entry.headerFields.contains("Content-Encoding"),
        let range = Self.byteRange(rangeValues, length: held.length),
        held.range.lowerBound <= range.lowerBound, range.upperBound <= held.range.upperBound
      else { continue }
      let lookup = CacheLookup(entry: entry, now: now(), heuristicLimit: heuristicLimit)
      guard mayServeFresh(entry, lookup, control: control) else {
        reason = "stale"
        continue
      }
      var (response, _) = served(entry, lookup, outcome: .hit, request: request)
      response.status = 206
      response.headerFields.remove("Content-Length")
      response.headerFields.remove("Content-Range")
      response.headerFields.append(checkedValue: String(range.count), for: "Content-Length")
      response.headerFields.append(
        checkedValue: ContentRange(range: range, length: held.length).fieldValue,
        for: "Content-Range")
      let start = entry.body.startIndex + range.lowerBound - held.range.lowerBound
      return (response, HTTPBody(entry.body.subdata(in: start..<start + range.count)))
    }
    if control.contains("only-if-cached") { return gatewayTimeout(request) }
    return try await fetch(request, control: control, key: key, reason: reason, next: next)
  }

  /// Stores a `206` (RFC 9111 §3.3, §3.4) beside the complete response of its variant, or
  /// combined with what is stored: a part of the stored complete response (the same strong
  /// entity tag and length) only refreshes its fields, as a `304` would; a part that touches or
  /// overlaps the stored part of the same representation joins it, and becomes a complete `200`
  /// when the two make the whole, unless together they pass ``maximumBodySize``. Otherwise
  /// the newer part takes the older one's place. A part whose body is not the length its
  /// `Content-Range` says is not stored.
  func savePartial(_ part: CachedResponse, for request: HTTPRequest, key: String) async {
    guard let held = part.heldBytes else { return }
    var entries = (try? await store.entries(for: key)) ?? []
    let isSameVariant = { (entry: CachedResponse) in
      entry.matches(request) || entry.varyValues == part.varyValues
    }
    let complete = entries.last { isSameVariant($0) && !$0.isPartial }
    let stored = entries.last { isSameVariant($0) && $0.isPartial }
    var kept: [CachedResponse]
    if let complete, complete.status == 200, complete.body.count == held.length,
      complete.hasStrongETag(of: part)
    {
      let head = HTTPResponse(status: part.status, headerFields: part.headerFields)
      kept = [
        complete.updated(
          with: head, requestTime: part.requestTime, responseTime: part.responseTime)
      ]
    } else if let combined = stored?.combined(with: part),
      combined.body.count <= maximumBodySize
    {
      kept = combined.isPartial ? [complete, combined].compactMap { $0 } : [combined]
    } else {
      kept = [complete, part].compactMap { $0 }
    }
    entries.removeAll(where: isSameVariant)
    entries += kept
    try? await store.setEntries(entries, for: key)
  }

  /// The one byte range of a `Range` field within a body of `length` bytes: `bytes=0-99`,
  /// `bytes=100-` or `bytes=-100` (the last 100). `nil` for anything else: another unit,
  /// several ranges, a range that starts past the end, or one that cannot be read.
  static func byteRange(_ values: [String], length: Int) -> Range<Int>? {
    guard values.count == 1, length > 0 else { return nil }
    let value = values[0].trimmed(" \t")
    guard let equals = value.firstIndex(of: "="),
      value[..<equals].lowercased() == "bytes"
    else { return nil }
    let spec = value[value.index(after: equals)...].trimmed(" \t")
    let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard bounds.count == 2,
      bounds.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
    else { return nil }
    let first = bounds[0].isEmpty ? nil : Int(bounds[0])
    let last = bounds[1].isEmpty ? nil : Int(bounds[1])
    switch (first, last) {
    case (let first?, let last?):
      guard first <= last, first < length else { return nil }
      return first..<(min(last, length - 1) + 1)
    case (let first?, nil):
      guard first < length else { return nil }
      return first..<length
    case (nil, let suffix?):
      guard suffix > 0 else { return nil }
      return max(0, length - suffix)..<length
    case (nil, nil):
      return nil
    }
  }
}

/// The `Content-Range` of a `206` holding one byte range of a representation whose length it
/// states (RFC 9110 §14.4): `bytes 0-99/1000`. A length of `*` (unknown), another unit, or a
/// range that ends past the length is none.
struct ContentRange: Equatable {
  /// The bytes held.
  let range: Range<Int>
  /// The length of the whole representation.
  let length: Int

  init(range: Range<Int>, length: Int) {
    self.range = range
    self.length = length
  }

  init?(_ values: [String]) {
    guard values.count == 1 else { return nil }
    let value = values[0].trimmed(" \t")
    guard let space = value.firstIndex(of: " "), value[..<space].lowercased() == "bytes"
    else { return nil }
    let spec = value[value.index(after: space)...]
    let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard halves.count == 2 else { return nil }
    let parts =
      halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
      + [halves[1]]
    guard parts.count == 3,
      parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
      let first = Int(parts[0]), let last = Int(parts[1]), let length = Int(parts[2]),
      first <= last, last < length
    else { return nil }
    self.init(range: first..<(last + 1), length: length)
  }

  /// The field's value.
  var fieldValue: String { "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)" }
}

extension CachedResponse {
  /// Whether this is a stored part (a `206`), which answers only `Range` requests it covers.
  var isPartial: Bool { status == 206 }

  /// The bytes of the representation the body holds, and the representation's length: all of
  /// it for a complete response; for a `206` its `Content-Range`, when the body has that many
  /// bytes.
  var heldBytes: ContentRange? {
    guard isPartial else { return ContentRange(range: 0..<body.count, length: body.count) }
    guard let held = ContentRange(headerFields.values(for: "Content-Range")),
      held.range.count == body.count
    else { return nil }
    return held
  }

  /// Whether both responses have a strong entity tag, and the same one (RFC 9110 §8.8.3.2):
  /// only then are they parts of one representation.
  func hasStrongETag(of other: CachedResponse) -> Bool {
    guard let mine = headerFields.firstValue(for: "ETag").flatMap(EntityTag.init),
      let theirs = other.headerFields.firstValue(for: "ETag").flatMap(EntityTag.init)
    else { return false }
    return mine.matchesStrongly(theirs)
  }

  /// Whether an `If-Range` lets this stored response answer (RFC 9110 §13.1.5): one strong
  /// entity tag, the stored one by strong comparison. A date is left to the server.
  func isStronglyMatched(byIfRange values: [String]) -> Bool {
    guard values.count == 1, let asked = EntityTag(values[0]),
      let mine = headerFields.firstValue(for: "ETag").flatMap(EntityTag.init)
    else { return false }
    return asked.matchesStrongly(mine)
  }

  /// This stored part and a newer one as one response (RFC 9110 §15.3.7.3), when both have
  /// the same strong entity tag and length and their bytes touch or overlap: the newer part's
  /// fields and the union of the bytes, a `200` with the whole length when the union is the
  /// whole representation. `nil` otherwise.
  func combined(with newer: CachedResponse) -> CachedResponse? {
    guard let mine = heldBytes, let theirs = newer.heldBytes, mine.length == theirs.length,
      hasStrongETag(of: newer), mine.range.lowerBound <= theirs.range.upperBound,
      theirs.range.lowerBound <= mine.range.upperBound
    else { return nil }
    let union =
      min(
        mine.range.lowerBound, theirs.range.lowerBound)..<max(
        mine.range.upperBound, theirs.range.upperBound)
    var bytes = Data(count: union.count)
    for (held, data) in [(mine, body), (theirs, newer.body)] {
      let start = held.range.lowerBound - union.lowerBound
      bytes.replaceSubrange(start..<start + data.count, with: data)
    }
    var result = newer
    result.body = bytes
    result.headerFields.remove("Content-Length")
    result.headerFields.remove("Content-Range")
    if union.count == mine.length {
      result.status = 200
    } else {
      result.headerFields.append(
        checkedValue: ContentRange(range: union, length: mine.length).fieldValue,
        for: "Content-Range")
    }
    result.headerFields.append(checkedValue: String(union.count), for: "Content-Length")
    return result
  }
}
