import EndpointPrimitives

extension HTTPFields {
  /// The fields that carry credentials and are redacted by default wherever the SDK shows
  /// or stores headers: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and the
  /// common API key fields. Every other name the SDK's rule calls secret is redacted too (see
  /// ``isSensitive(_:additionalNames:)`` and ``Redaction``).
  public static let sensitiveNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
  ]

  /// The text that replaces a redacted value.
  public static let redactedValue = "<redacted>"

  /// Whether `name` is one of ``sensitiveNames`` or of `additionalNames`, or a secret under
  /// the SDK's rule (``Redaction/isSecretHeaderName(_:)``), ignoring case.
  public static func isSensitive(_ name: String, additionalNames: Set<String> = []) -> Bool {
    sensitiveNames.contains(name.lowercased()) || Redaction.isSecretHeaderName(name)
      || additionalNames.contains { HTTPToken.namesEqual($0, name) }
  }

  /// A copy with the value of every sensitive field replaced by ``redactedValue``, as
  /// ``Redaction/standard`` hides them (URLs in `Location` lose their secrets too).
  ///
  /// - Parameter additionalNames: more field names to redact (API keys, tokens), in any case.
  public func redacted(additionalNames: Set<String> = []) -> HTTPFields {
    Redaction.standard.adding(headerNames: additionalNames).apply(to: self)
  }
}

extension HTTPFields: CustomReflectable {
  /// The fields in order, each credential's value hidden as ``description`` hides it, so
  /// `dump(_:)`, LLDB's `po` and a failed `#expect` never show a secret.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: Array(redacted()), displayStyle: .collection)
  }
}

extension HTTPFields.Field: CustomReflectable {
  /// The name and the value, a credential's value hidden as ``description`` hides it.
  public var customMirror: Mirror {
    Mirror(self, children: ["name": name, "value": shownValue], displayStyle: .struct)
  }
}
