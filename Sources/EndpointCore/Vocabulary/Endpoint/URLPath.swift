import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A path relative to an API's base URL, written as a string literal with interpolations.
///
/// The literal parts are the path as typed (spaces and other characters a URL cannot hold are
/// percent-encoded; a `?` starts a query). Every interpolated value is percent-encoded as
/// **one** segment, so user input cannot climb or split the path:
///
/// ```swift
/// let login = "../admin"
/// let path: URLPath = "users/\(login)/repos"
/// path.encoded   // "users/..%2Fadmin/repos"
/// ```
///
/// An interpolated value keeps the characters RFC 3986 allows in a segment as they are (letters,
/// digits, `-` `.` `_` `~` and `:` `@` `,` `;` `=`) and encodes everything else: `/`, `?`, `#`,
/// `%`, spaces, controls, the other sub-delimiters and non-ASCII; `.` and `..` alone are encoded
/// so they cannot climb the path. In the query part a value is encoded as one query value.
/// `\(raw: text)` inserts already-encoded text unchanged.
///
/// Resolution against a base URL (see ``resolved(against:)``):
///
/// | base                      | path                | result                                  |
/// |---------------------------|---------------------|-----------------------------------------|
/// | `https://api.example/v1`  | `"users"`           | `https://api.example/v1/users`          |
/// | `https://api.example/v1/` | `"/users"`          | `https://api.example/v1/users`          |
/// | `https://api.example/v1`  | `"users/"`          | `https://api.example/v1/users/`         |
/// | `https://api.example/v1`  | `""`                | `https://api.example/v1`                |
/// | `https://api.example`     | `""`                | `https://api.example/`                  |
/// | `https://api.example/v1`  | `"search?q=a b"`    | `https://api.example/v1/search?q=a%20b` |
/// | `https://api.example?k=1` | `"users?page=2"`    | `https://api.example/users?k=1&page=2`  |
/// | `https://api.example/v1`  | `"https://x.org/y"` | `https://x.org/y`                       |
/// | `https://api.example///`  | `"foo"`             | `https://api.example///foo`             |
public struct URLPath: Sendable, Hashable, ExpressibleByStringInterpolation,
  CustomStringConvertible
{
  /// The percent-encoded path, with the query if the literal had one.
  public let encoded: String

  /// Creates a path from a literal with no interpolations.
  public init(stringLiteral value: String) {
    var interpolation = StringInterpolation(
      literalCapacity: value.utf8.count,
      interpolationCount: 0
    )
    interpolation.appendLiteral(value)
    encoded = interpolation.encoded
  }

  /// Creates a path from a string known only at run time, read as a literal would be: `/`
  /// separates segments, `?` starts a query, and characters a URL cannot hold are
  /// percent-encoded.
  ///
  /// ```swift
  /// let route = "users/octocat/repos"          // from a configuration file
  /// let endpoint = Endpoint<[Repo]>(
  ///   json: .get, path: URLPath(route), relativeTo: api
  /// )
  /// ```
  ///
  /// To keep a value that may contain `/` or `?` in one segment, interpolate it instead:
  /// `"users/\(login)"`.
  ///
  /// - Parameter path: the path, relative to a base URL or absolute.
  public init(_ path: String) {
    self.init(stringLiteral: path)
  }

  /// A path whose text is already percent-encoded, such as a relative URL's.
  init(encoded: String) {
    self.encoded = encoded
  }

  /// The relative URL of this path, for an endpoint whose base URL the client gives.
  func relativeURL() throws(InvalidRequest) -> URL {
    if isAbsoluteURL {
      guard let url = URL(string: encoded) else {
        throw InvalidRequest.invalidURL(encoded, reason: "not a valid absolute URL")
      }
      return url
    }
    guard let url = URL(string: encoded), url.scheme == nil, url.host == nil else {
      throw InvalidRequest.invalidURL(
        encoded,
        reason: "not a relative path (a ':' in its first segment reads as a scheme)"
      )
    }
    return url
  }

  /// Creates a path from a literal with interpolations.
  public init(stringInterpolation: StringInterpolation) {
    encoded = stringInterpolation.encoded
  }

  /// Builds the encoded path piece by piece.
  public struct StringInterpolation: StringInterpolationProtocol, Sendable {
    var encoded = ""
    var inQuery = false

    /// Creates an empty interpolation.
    public init(literalCapacity: Int, interpolationCount: Int) {
      encoded.reserveCapacity(literalCapacity + interpolationCount * 8)
    }

    /// Appends literal text: the path as typed, encoded only where a URL requires it.
    public mutating func appendLiteral(_ literal: String) {
      if inQuery {
        encoded += PercentEncoding.encodeQuery(literal)
      } else if let mark = literal.utf8.firstIndex(of: UInt8(ascii: "?")) {
        encoded += PercentEncoding.encodePath(String(literal[..<mark]))
        encoded += "?"
        inQuery = true
        encoded += PercentEncoding.encodeQuery(String(literal[literal.utf8.index(after: mark)...]))
      } else {
        encoded += PercentEncoding.encodePath(literal)
      }
    }

    /// Appends text that is already percent-encoded, as it is: for a segment an API gave you
    /// encoded (a cursor, a signed key). Nothing is checked or encoded, so never pass user
    /// input here.
    ///
    /// ```swift
    /// let path: URLPath = "objects/\(raw: "photos%2F2024%2Fa.jpg")"
    /// ```
    public mutating func appendInterpolation(raw encodedText: String) {
      encoded += encodedText
    }

    /// Appends a value as one percent-encoded segment (`/`, `?`, `#` and `%` included);
    /// `:` `@` `,` `;` `=`, which a segment holds as they are, are kept (`a@b.com`).
    public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      let text = value.description
      if text == "." {
        // Dot segments would be removed or climb the path; encode them so they stay data.
        encoded += "%2E"
      } else if text == ".." {
        encoded += "%2E%2E"
      } else {
        // In the query a value is one query value: `=` and `;` are encoded there too.
        encoded +=
          inQuery ? PercentEncoding.encodeComponent(text) : PercentEncoding.encodeSegment(text)
      }
    }
  }

  /// The encoded path.
  public var description: String { encoded }

  /// Whether the path is an absolute URL (it starts with `scheme://`).
  public var isAbsoluteURL: Bool {
    let utf8 = encoded.utf8
    guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
      utf8[colon...].starts(with: "://".utf8)
    else { return false }
    let scheme = utf8[..<colon]
    guard let first = scheme.first, isASCIILetter(first) else { return false }
    return scheme.allSatisfy { byte in
      isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
  }

  private func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }

  /// The URL this path names relative to `base`.
  ///
  /// The base's path is always kept, whether or not either side has a slash where they meet; an
  /// empty path gives the base itself (with `/` as its path when it has none); an absolute URL
  /// ignores the base. A query in the path is added after any query the base has. The base's
  /// fragment is dropped.
  ///
  /// - Throws: ``InvalidRequest`` (`.url`) naming the input when no valid URL results.
  public func resolved(against base: URL) throws(InvalidRequest) -> URL {
    if isAbsoluteURL {
      guard let url = URL(string: encoded) else {
        throw InvalidRequest.invalidURL(encoded, reason: "not a valid absolute URL")
      }
      try Self.checkHost(of: url, input: encoded)
      return url
    }
    let baseText = base.absoluteString
    guard let parts = BaseURLParts(baseText), base.host()?.isEmpty == false else {
      throw InvalidRequest.invalidURL(
        URLRedaction.redacted(base),
        reason: "a base URL needs a scheme and a host"
      )
    }
    // Plain string work on already-encoded text: one URL parse in the end, no URLComponents.
    var path = Substring(encoded)
    var query: Substring = ""
    if let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")) {
      query = path[path.utf8.index(after: mark)...]
      path = path[..<mark]
    }
    var result = ""
    result.reserveCapacity(baseText.utf8.count + encoded.utf8.count + 2)
    result += parts.origin
    if path.isEmpty {
      result += parts.path.isEmpty ? "/" : parts.path
    } else {
      // One slash joins the two: the base's own path, slashes included, is kept as it is.
      var basePath = parts.path.utf8[...]
      if basePath.last == UInt8(ascii: "/") { basePath = basePath.dropLast() }
      result += Substring(basePath)
      result += "/"
      result += Substring(path.utf8.drop { $0 == UInt8(ascii: "/") })
    }
    if !parts.query.isEmpty || !query.isEmpty {
      result += "?"
      result += parts.query
      if !parts.query.isEmpty, !query.isEmpty { result += "&" }
      result += query
    }
    guard let url = URL(string: result) else {
      throw InvalidRequest.invalidURL(
        encoded,
        reason: "cannot be resolved against \(URLRedaction.redacted(base))"
      )
    }
    try Self.checkHost(of: url, input: encoded)
    return url
  }

  /// Throws when the path changed the host into one no request can reach (a space or another
  /// character a host name cannot hold, as in `"https://api.example.com  ---invalid"`).
  static func checkHost(of url: URL, input: String) throws(InvalidRequest) {
    if let reason = HTTPURL.hostProblem(url) {
      throw InvalidRequest.invalidURL(HTTPToken.quotedForMessage(input), reason: reason)
    }
  }
}

/// The origin (`scheme://authority`), path and query of a URL's text; the fragment is dropped.
private struct BaseURLParts {
  let origin: Substring
  let path: Substring
  let query: Substring

  init?(_ text: String) {
    // Byte-wise: every delimiter here is ASCII, and a URL's text has no other raw characters.
    var rest = Substring(text)
    if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
    var query: Substring = ""
    if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
      query = rest[rest.utf8.index(after: mark)...]
      rest = rest[..<mark]
    }
    guard let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")),
      rest.utf8[colon...].starts(with: "://".utf8)
    else {
      return nil
    }
    let authority = rest.utf8.index(colon, offsetBy: 3)
    let pathStart = rest.utf8[authority...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
    origin = rest[..<pathStart]
    path = rest[pathStart...]
    self.query = query
  }
}
