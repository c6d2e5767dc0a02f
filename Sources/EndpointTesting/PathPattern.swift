import Foundation

/// Which URLs a stub rule answers: a path (exact, prefix or template), optionally with an origin
/// and required query items.
///
/// A string literal is an exact path, or a template when it contains `{name}` placeholders; each
/// placeholder matches one path segment and its value is in ``RecordedRequest/pathParameters``.
/// A literal may start with an origin (`https://api.example.com/users`) to match the host too,
/// and end with a query (`/rates?currency=USD`) whose items the request must contain.
///
/// ```swift
/// stub.on(.get, "/users/{id}")                      // template
/// stub.on(.get, "/health")                          // exact path
/// stub.on(.get, .prefix("/static/"))                // any path under /static/
/// stub.on(.get, "https://cdn.example.com/logo.png") // origin and path
/// stub.on(.get, .any)                               // every URL
/// ```
public struct PathPattern: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
  enum Kind: Sendable, Hashable {
    case any
    case exact
    case prefix
    case template
  }

  let kind: Kind
  /// `scheme://host[:port]`, lowercased, or `nil` to match any origin.
  let origin: String?
  /// The path as written, without origin and query.
  let path: String
  /// Query items the literal required, in order.
  let query: [QueryItem]

  struct QueryItem: Sendable, Hashable {
    let name: String
    let value: String
  }

  private init(kind: Kind, text: String) {
    var rest = Substring(text)
    var origin: String?
    if let range = rest.range(of: "://") {
      let afterScheme = rest[range.upperBound...]
      let hostEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
      origin = PathPattern.normalizedOrigin(
        scheme: String(rest[..<range.lowerBound]),
        authority: String(afterScheme[..<hostEnd])
      )
      rest = afterScheme[hostEnd...]
    }
    var query: [QueryItem] = []
    if let mark = rest.firstIndex(of: "?") {
      for pair in rest[rest.index(after: mark)...].split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let value = parts.count > 1 ? String(parts[1]) : ""
        query.append(QueryItem(name: name, value: value.removingPercentEncoding ?? value))
      }
      rest = rest[..<mark]
    }
    self.kind = kind
    self.origin = origin
    self.path = String(rest)
    self.query = query
  }

  /// Creates an exact path, or a template if the text contains `{`.
  public init(stringLiteral value: String) {
    self.init(kind: value.contains("{") ? .template : .exact, text: value)
  }

  /// Exactly this path (after percent-decoding each segment).
  public static func exact(_ path: String) -> PathPattern {
    PathPattern(kind: .exact, text: path)
  }

  /// Any path that starts with `path`, segment by segment: `/api` matches `/api` and `/api/users`,
  /// not `/apix`. A trailing `/` requires at least one more segment.
  public static func prefix(_ path: String) -> PathPattern {
    PathPattern(kind: .prefix, text: path)
  }

  /// A path with `{name}` placeholders, each matching one non-empty segment.
  public static func template(_ path: String) -> PathPattern {
    PathPattern(kind: .template, text: path)
  }

  /// Every URL.
  public static let any = PathPattern(kind: .any, text: "")

  /// The pattern as written, such as `/users/{id}` or `prefix /static/`.
  public var description: String {
    let base = (origin ?? "") + path
    let query =
      self.query.isEmpty
      ? "" : "?" + self.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    switch kind {
    case .any: return "any URL"
    case .prefix: return "prefix " + base + query
    case .exact, .template: return base + query
    }
  }

  /// The pattern with `baseURL`'s origin and path in front of a relative path.
  func resolved(against baseURL: URL?) -> PathPattern {
    guard let baseURL, origin == nil,
      let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
      let scheme = components.scheme, let host = components.host
    else { return self }
    let authority = components.port.map { "\(host):\($0)" } ?? host
    var basePath = components.percentEncodedPath
    while basePath.hasSuffix("/") { basePath.removeLast() }
    var copy = self
    copy = PathPattern(
      kind: kind,
      origin: PathPattern.normalizedOrigin(scheme: scheme, authority: authority),
      path: kind == .any ? path : basePath + "/" + path.drop { $0 == "/" },
      query: query
    )
    return copy
  }

  private init(kind: Kind, origin: String?, path: String, query: [QueryItem]) {
    self.kind = kind
    self.origin = origin
    self.path = path
    self.query = query
  }

  static func normalizedOrigin(scheme: String, authority: String) -> String {
    let scheme = scheme.lowercased()
    var authority = authority.lowercased()
    if scheme == "http", authority.hasSuffix(":80") { authority.removeLast(3) }
    if scheme == "https", authority.hasSuffix(":443") { authority.removeLast(4) }
    return scheme + "://" + authority
  }

  static func origin(of url: URL) -> String? {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
      let scheme = components.scheme, let host = components.host
    else { return nil }
    let authority = components.port.map { "\(host):\($0)" } ?? host
    return normalizedOrigin(scheme: scheme, authority: authority)
  }

  /// The path segments of `url`, each percent-decoded, so an encoded `/` stays inside its segment.
  static func segments(of url: URL) -> [String] {
    let encoded = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
    return segments(ofPath: encoded)
  }

  static func segments(ofPath path: String) -> [String] {
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map {
      String($0).removingPercentEncoding ?? String($0)
    }
    if parts.first == "" { parts.removeFirst() }
    return parts
  }

  /// Whether the path of `url` matches, with the values of the template's placeholders.
  func matchPath(_ url: URL) -> [String: String]? {
    let actual = PathPattern.segments(of: url)
    let expected = PathPattern.segments(ofPath: path)
    switch kind {
    case .any:
      return [:]
    case .exact:
      return actual == expected ? [:] : nil
    case .prefix:
      var prefix = expected
      if prefix.last == "" {
        prefix.removeLast()
        guard actual.count > prefix.count else { return nil }
      }
      return Array(actual.prefix(prefix.count)) == prefix ? [:] : nil
    case .template:
      guard actual.count == expected.count else { return nil }
      var parameters: [String: String] = [:]
      for (pattern, segment) in zip(expected, actual) {
        if pattern.hasPrefix("{"), pattern.hasSuffix("}"), pattern.count >= 2 {
          guard !segment.isEmpty else { return nil }
          parameters[String(pattern.dropFirst().dropLast())] = segment
        } else if pattern != segment {
          return nil
        }
      }
      return parameters
    }
  }
}
