/// The naming rules of generated code: idiomatic Swift names from the document's names,
/// keywords escaped, and no collision with Swift's or the SDK's own names.
enum SwiftNames {
  /// Words that must be escaped with backticks where they name a declaration.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "operator", "private", "precedencegroup", "protocol",
    "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
    "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
    "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false",
    "is", "nil", "super", "throws", "true", "try",
  ]

  /// Member names that even backticks cannot make usable: they get a trailing underscore.
  static let unusableMembers: Set<String> = ["self", "Self", "Type", "Protocol", "init", "_"]

  /// Type names taken by the SDK's public types, the module names and the Swift and Foundation
  /// types the generated code uses. A schema named so gets the suffix `Schema`, a namespace the
  /// suffix `API`.
  static let reservedTypes: Set<String> = [
    // The SDK's public types (every runtime module).
    "AcceptedStatus", "AuthorizationMiddleware", "BaseURLMiddleware", "CacheMiddleware",
    "CacheStatus", "CacheStore", "CachedResponse", "ClosureMiddleware", "CoalescingMiddleware",
    "CurlHTTPClient", "DefaultHTTPClient", "DefaultHeadersMiddleware", "EncodingFailure",
    "Endpoint", "HTTPBody", "HTTPClient", "HTTPFields", "HTTPLogEntry", "HTTPMethod",
    "HTTPRequest", "HTTPResponse", "HTTPTransferClient", "InvalidRequest", "JSONValue",
    "LoggingMiddleware", "ManualClock", "Middleware", "MiddlewareClient", "MultipartPart",
    "Paginator", "ParsingFailure", "PathPattern", "PublicKeyPin", "RecordMode",
    "RecordedExchange", "RecordedRequest", "RecordingClient", "Redaction", "RedirectPolicy",
    "ReplayClient", "RequestOptions", "RequestPayload", "ResponseParser", "RetryMiddleware",
    "RetryPolicy", "ServerSentEvent", "SpanRecord", "StubClient", "StubResponse", "StubRule",
    "StubRuleBuilder", "TestDoubleFailure", "TokenProvider", "TraceContext",
    "TraceContextMiddleware", "TransferMetrics", "TransferProgress", "TransportFailure",
    "URLPath", "URLSessionHTTPClient", "UnexpectedResponse", "SharedCoders",
    // Modules.
    "EndpointCore", "EndpointJSON", "EndpointTransport", "EndpointCurl", "EndpointTesting",
    "EndpointDefaultClient", "Swift", "Foundation", "FoundationEssentials",
    // Swift and Foundation types the generated code names.
    "Any", "AnyObject", "Array", "Bool", "Character", "CodingKey", "CodingKeys", "Codable",
    "Data", "Date", "Decodable", "Decoder", "Dictionary", "Double", "Encodable", "Encoder",
    "Equatable", "Error", "Float", "Hashable", "Int", "Int32", "Int64", "Never", "Optional",
    "Protocol", "RawRepresentable", "Result", "Self", "Sendable", "Set", "String", "Type",
    "UInt", "URL", "URLQueryItem", "Void",
  ]

  /// The words of a name: runs of ASCII letters and digits, split at every other character.
  static func words(_ text: String) -> [Substring] {
    text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
  }

  /// `UpperCamelCase`: `simple-user` → `SimpleUser`, `pullRequest` → `PullRequest`.
  static func typeName(_ text: String, fallback: String = "Value") -> String {
    var name = words(text).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    if name.isEmpty { name = fallback }
    if name.first!.isNumber { name = "_" + name }
    return name
  }

  /// `lowerCamelCase`: `per_page` → `perPage`, `X-Request-ID` → `xRequestID`, `URL` → `url`.
  static func memberName(_ text: String, fallback: String = "value") -> String {
    let parts = words(text)
    guard let first = parts.first else { return fallback }
    var name = lowercasedLeadingCapitals(first)
    for part in parts.dropFirst() {
      name += part.prefix(1).uppercased() + part.dropFirst()
    }
    if name.first!.isNumber { name = "_" + name }
    if unusableMembers.contains(name) { name += "_" }
    return name
  }

  /// A member name as written in a declaration or a reference: keywords in backticks.
  static func escaped(_ name: String) -> String {
    keywords.contains(name) ? "`\(name)`" : name
  }

  /// `URL` → `url`, `HTMLUrl` → `htmlUrl`, `Pet` → `pet`, `pet` → `pet`.
  private static func lowercasedLeadingCapitals(_ word: Substring) -> String {
    let characters = Array(word)
    var upper = 0
    while upper < characters.count, characters[upper].isUppercase { upper += 1 }
    if upper == 0 { return String(word) }
    if upper == characters.count || upper == 1 {
      return String(characters[..<upper]).lowercased() + String(characters[upper...])
    }
    // `HTMLUrl`: the last capital starts the next word.
    return String(characters[..<(upper - 1)]).lowercased() + String(characters[(upper - 1)...])
  }
}

/// Names given out once each within one scope, compared without case (so two files never
/// differ only by case), with `2`, `3`… after a name already taken.
struct NameScope {
  private var taken: Set<String>
  /// Names of an enclosing scope, lowercased: never given out here, never copied.
  private let outer: Set<String>

  init(reserved: some Sequence<String> = [], outer: Set<String> = []) {
    taken = Set(reserved.map { $0.lowercased() })
    self.outer = outer
  }

  /// The names given out, lowercased.
  var lowercasedNames: Set<String> { taken }

  func isTaken(_ name: String) -> Bool {
    taken.contains(name.lowercased()) || outer.contains(name.lowercased())
  }

  mutating func claim(_ name: String) -> String {
    var candidate = name
    var counter = 2
    while isTaken(candidate) {
      candidate = name + String(counter)
      counter += 1
    }
    taken.insert(candidate.lowercased())
    return candidate
  }
}
