extension HTTPFields {
  /// The fields that carry credentials and are redacted by default wherever the SDK shows
  /// or stores headers: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and the
  /// common API key fields. Any name containing `token`, `secret`, `password`, `api-key` or
  /// `apikey` is redacted too (see ``isSensitive(_:additionalNames:)``).
  public static let sensitiveNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
  ]

  /// Parts of a field name that mark it as a credential, such as `X-Auth-Token`.
  static let sensitiveNameParts = ["token", "secret", "password", "api-key", "apikey"]

  /// The text that replaces a redacted value.
  public static let redactedValue = "<redacted>"

  /// Whether `name` is one of ``sensitiveNames`` or of `additionalNames`, or contains `token`,
  /// `secret`, `password`, `api-key` or `apikey`, ignoring case.
  public static func isSensitive(_ name: String, additionalNames: Set<String> = []) -> Bool {
    let lowered = name.lowercased()
    return sensitiveNames.contains(lowered)
      || sensitiveNameParts.contains { lowered.contains($0) }
      || additionalNames.contains { HTTPToken.namesEqual($0, name) }
  }

  /// A copy with the value of every sensitive field replaced by ``redactedValue``.
  ///
  /// - Parameter additionalNames: more field names to redact (API keys, tokens), in any case.
  public func redacted(additionalNames: Set<String> = []) -> HTTPFields {
    var copy = HTTPFields()
    for field in self {
      let value =
        HTTPFields.isSensitive(field.name, additionalNames: additionalNames)
        ? HTTPFields.redactedValue : field.value
      // Names and values already passed validation, and the replacement is plain text.
      try? copy.append(value, for: field.name)
    }
    return copy
  }
}
