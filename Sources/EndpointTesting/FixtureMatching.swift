import Foundation

/// Whether a recorded request answers a new one. Values recorded as `<redacted>` match anything.
enum FixtureMatching {
  private static let redacted = HTTPFields.redactedValue

  static func matches(_ stored: Fixture.Request, _ incoming: Fixture.Request, body: Bool) -> Bool {
    guard stored.method == incoming.method, sameResource(stored.url, incoming.url),
      queryMatches(stored.url, incoming.url)
    else { return false }
    return !body || bodyMatches(stored, incoming)
  }

  /// Same origin and path.
  static func sameResource(_ a: URL, _ b: URL) -> Bool {
    let left = URLComponents(url: a, resolvingAgainstBaseURL: true)
    let right = URLComponents(url: b, resolvingAgainstBaseURL: true)
    return PathPattern.origin(of: a) == PathPattern.origin(of: b)
      && PathPattern.segments(ofPath: left?.percentEncodedPath ?? "")
        == PathPattern.segments(ofPath: right?.percentEncodedPath ?? "")
  }

  private static func items(_ url: URL) -> [(String, String)] {
    (URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []).map {
      ($0.name, $0.value ?? "")
    }
  }

  /// The same items in any order; a recorded `<redacted>` value matches any value.
  private static func queryMatches(_ stored: URL, _ incoming: URL) -> Bool {
    pairsMatch(items(stored), items(incoming))
  }

  private static func pairsMatch(_ stored: [(String, String)], _ incoming: [(String, String)])
    -> Bool
  {
    guard stored.count == incoming.count else { return false }
    var remaining = incoming
    for (name, value) in stored {
      guard
        let index = remaining.firstIndex(where: {
          $0.0 == name && ($0.1 == value || value == redacted || $0.1 == redacted)
        })
      else { return false }
      remaining.remove(at: index)
    }
    return true
  }

  private static func bodyMatches(_ stored: Fixture.Request, _ incoming: Fixture.Request) -> Bool {
    if stored.body == incoming.body { return true }
    if let left = JSONTree(parsing: stored.body), let right = JSONTree(parsing: incoming.body) {
      return jsonMatches(left, right)
    }
    if FixtureCoding.mediaType(incoming.headerFields) == "application/x-www-form-urlencoded" {
      return pairsMatch(formPairs(stored.body), formPairs(incoming.body))
    }
    if let left = withoutBoundary(stored.body), let right = withoutBoundary(incoming.body) {
      return left == right
    }
    return false
  }

  /// A multipart body with its boundary (random on every run) replaced by a fixed text; `nil`
  /// when the body does not start with a delimiter line.
  private static func withoutBoundary(_ body: Data) -> Data? {
    guard body.starts(with: Data("--".utf8)),
      let lineEnd = body.firstRange(of: Data("\r\n".utf8))?.lowerBound,
      lineEnd - body.startIndex > 2
    else { return nil }
    let boundary = body[body.index(body.startIndex, offsetBy: 2)..<lineEnd]
    return body.replacing(boundary, with: Data("boundary".utf8))
  }

  private static func formPairs(_ body: Data) -> [(String, String)] {
    String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        let text = String($0).replacingOccurrences(of: "+", with: " ")
        return text.removingPercentEncoding ?? text
      }
      return (parts[0], parts.count > 1 ? parts[1] : "")
    }
  }

  private static func jsonMatches(_ stored: JSONTree, _ incoming: JSONTree) -> Bool {
    switch (stored, incoming) {
    case (.string(redacted), _), (_, .string(redacted)):
      return true
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { jsonMatches($0, $1) }
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      let right = Dictionary(b, uniquingKeysWith: { first, _ in first })
      return a.allSatisfy { key, value in right[key].map { jsonMatches(value, $0) } ?? false }
    default:
      return stored == incoming
    }
  }
}
