#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Redaction {
  /// `fields` with every hidden value replaced by ``HTTPFields/redactedValue``.
  public func apply(to fields: HTTPFields) -> HTTPFields {
    var copy = HTTPFields()
    for field in fields {
      let value = hidesHeader(field.name) ? HTTPFields.redactedValue : field.value
      // The name already passed validation and the replacement is plain text: this cannot fail.
      try? copy.append(value, for: field.name)
    }
    return copy
  }

  /// The URL's text with hidden query values and any password in the user information replaced
  /// by ``HTTPFields/redactedValue``; everything else is kept byte for byte.
  public func apply(to url: URL) -> String {
    var text = Substring(url.absoluteString)
    var fragment: Substring = ""
    if let hash = text.firstIndex(of: "#") {
      fragment = text[hash...]
      text = text[..<hash]
    }
    var query: Substring?
    if let mark = text.firstIndex(of: "?") {
      query = text[text.index(after: mark)...]
      text = text[..<mark]
    }
    var result = redactingPassword(in: text)
    if let query {
      result += "?" + redactingPairs(query)
    }
    return result + fragment
  }

  /// A form body (`name=value&…`) with hidden values replaced; `nil` when the bytes are not text.
  func applyToForm(_ body: Data) -> Data? {
    guard let text = String(validating: body, as: UTF8.self) else { return nil }
    return Data(redactingPairs(Substring(text)).utf8)
  }

  /// `name=value` pairs joined by `&`, with hidden values replaced.
  func redactingPairs(_ pairs: Substring) -> String {
    if queryParameterNames.isEmpty { return String(pairs) }
    return pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let rawName = pair[..<equals]
      guard hidesQueryParameter(Self.decodeFormComponent(rawName)) else { return String(pair) }
      return "\(rawName)=\(HTTPFields.redactedValue)"
    }.joined(separator: "&")
  }

  /// `scheme://user:password@host/path` with the password replaced, unless this redaction hides
  /// nothing at all (``none``).
  private func redactingPassword(in text: Substring) -> String {
    guard !headerNames.isEmpty || !queryParameterNames.isEmpty,
      let schemeEnd = text.firstRange(of: "://")
    else { return String(text) }
    let authorityStart = schemeEnd.upperBound
    let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
    let authority = text[authorityStart..<authorityEnd]
    guard let at = authority.lastIndex(of: "@"),
      let colon = authority[..<at].firstIndex(of: ":")
    else { return String(text) }
    return String(text[..<authority.index(after: colon)]) + HTTPFields.redactedValue
      + String(text[at...])
  }

  /// A query or form name with `+` read as a space and `%XX` escapes decoded.
  static func decodeFormComponent(_ text: Substring) -> String {
    PercentEncoding.decode(String(text.map { $0 == "+" ? " " : $0 }))
  }
}
