#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CacheMiddleware {
  /// Answers a `GET` with `Range` from a fresh stored `200` when it asks for one byte range the
  /// body covers (RFC 9110 §14.2, §15.3.7): a `206` with `Content-Range`. Anything else (several
  /// ranges, one past the end, a stored response that is stale, partial or content-coded) goes
  /// to the network untouched, and its response is not stored.
  func answerRange(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
    let control = CacheControl(request.headerFields, isRequest: true)
    let key = Self.key(request.url)
    let entries = (try? await store.entries(for: key)) ?? []
    if let entry = entries.last(where: { $0.matches(request) }), entry.status == 200,
      !entry.headerFields.contains("Content-Encoding"),
      let range = Self.byteRange(
        request.headerFields.values(for: "Range"), length: entry.body.count)
    {
      let lookup = CacheLookup(entry: entry, now: now(), heuristicLimit: heuristicLimit)
      if mayServeFresh(entry, lookup, control: control) {
        var (response, _) = served(entry, lookup, outcome: .hit, request: request)
        response.status = 206
        response.headerFields.remove("Content-Length")
        response.headerFields.append(checkedValue: String(range.count), for: "Content-Length")
        response.headerFields.append(
          checkedValue: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(entry.body.count)",
          for: "Content-Range")
        return (response, HTTPBody(entry.body.subdata(in: range)))
      }
    }
    if control.contains("only-if-cached") { return gatewayTimeout(request) }
    return try await forwardAsked(request, next: next)
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
