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

  /// The URL's text with hidden query values and the user information (`user:password@`)
  /// replaced by ``HTTPFields/redactedValue``, unless this redaction hides nothing (``none``);
  /// everything else is kept byte for byte.
  public func apply(to url: URL) -> String {
    URLRedaction.redacted(url, hidingUserInfo: self != .none) { name in
      hidesQueryParameter(Self.decodeFormComponent(Substring(name)))
    }
  }

  /// A form body (`name=value&…`) with hidden values replaced; `nil` when the bytes are not text.
  func applyToForm(_ body: Data) -> Data? {
    guard let text = String(validating: body, as: UTF8.self) else { return nil }
    return Data(redactingPairs(Substring(text)).utf8)
  }

  /// `name=value` pairs joined by `&`, with hidden values replaced.
  func redactingPairs(_ pairs: Substring) -> String {
    if self == .none { return String(pairs) }
    return pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let rawName = pair[..<equals]
      guard hidesQueryParameter(Self.decodeFormComponent(rawName)) else { return String(pair) }
      return "\(rawName)=\(HTTPFields.redactedValue)"
    }.joined(separator: "&")
  }

  /// A query or form name with `+` read as a space and `%XX` escapes decoded.
  static func decodeFormComponent(_ text: Substring) -> String {
    PercentEncoding.decode(String(text.map { $0 == "+" ? " " : $0 }))
  }
}
