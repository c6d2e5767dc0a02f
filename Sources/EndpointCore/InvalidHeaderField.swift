/// A header field was rejected because its name or value could break the HTTP message.
public struct InvalidHeaderField: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong with the field.
  public enum Reason: Hashable, Sendable {
    /// The name is empty or holds a character outside RFC 9110's `tchar` set.
    case nameNotAToken
    /// The value holds a character that would end the field: `"CR"`, `"LF"` or `"NUL"`.
    case forbiddenCharacterInValue(String)
  }

  /// The offending field's name, as given.
  public let name: String
  /// Why the field was rejected.
  public let reason: Reason

  /// Creates the error.
  public init(name: String, reason: Reason) {
    self.name = name
    self.reason = reason
  }

  /// A sentence naming the field and the problem; the value itself is never shown.
  public var description: String {
    switch reason {
    case .nameNotAToken:
      "Invalid header field name \(HTTPToken.quotedForMessage(name)): a name must be a non-empty RFC 9110 "
        + "token (letters, digits and !#$%&'*+-.^_`|~)"
    case .forbiddenCharacterInValue(let character):
      "Invalid value for header field \(HTTPToken.quotedForMessage(name)): it contains \(character), "
        + "which a field value must not contain"
    }
  }
}
