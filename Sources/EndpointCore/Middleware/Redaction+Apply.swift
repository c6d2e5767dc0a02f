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

  /// A query or form name with `+` read as a space and `%XX` escapes decoded; an invalid escape
  /// or invalid UTF-8 is kept as written.
  static func decodeFormComponent(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var index = text.utf8.startIndex
    while index < text.utf8.endIndex {
      let byte = text.utf8[index]
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"),
        let low = text.utf8.index(index, offsetBy: 2, limitedBy: text.utf8.endIndex),
        low < text.utf8.endIndex,
        let high = hexValue(text.utf8[text.utf8.index(after: index)]),
        let lowValue = hexValue(text.utf8[low])
      {
        bytes.append(high << 4 | lowValue)
        index = low
      } else {
        bytes.append(byte)
      }
      index = text.utf8.index(after: index)
    }
    return String(validating: bytes, as: UTF8.self) ?? String(text)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
