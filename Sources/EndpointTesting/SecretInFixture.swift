/// A fixture was not written because a secret still appears in it.
///
/// The secret itself is never shown: the description says what it is (a registered secret by
/// its position in ``FixtureRedaction/secrets``, a JSON Web Token, a `Bearer` credential, the
/// value of a field redacted earlier in the recording) and where and in which form it was
/// found.
public struct SecretInFixture: Error, Sendable, Hashable, CustomStringConvertible {
  /// The fixture file that was not written.
  public let file: String
  /// The secret's position in ``FixtureRedaction/secrets``, from 1; 0 when it is not a
  /// registered secret.
  public let secret: Int
  /// The form it was found in: `as written`, `percent-encoded`, `form-encoded`, `JSON-escaped`
  /// or `base64`.
  public let form: String
  /// Where: `interaction 2 request`, `interaction 2 response`, `interaction 2 error`.
  public let location: String
  /// What was found: `registered secret #2`, `a JSON Web Token`, `a Bearer or Basic
  /// credential`, `the value of a field redacted earlier in this recording`.
  public let what: String

  /// Creates the error.
  public init(file: String, secret: Int, form: String, location: String, what: String? = nil) {
    self.file = file
    self.secret = secret
    self.form = form
    self.location = location
    self.what = what ?? Self.registered(secret)
  }

  static func registered(_ number: Int) -> String {
    "registered secret #\(number)"
  }

  static func describe(_ pattern: Redaction.ValuePattern) -> String {
    switch pattern {
    case .jsonWebToken: "a JSON Web Token"
    case .authorizationCredential: "a Bearer or Basic credential"
    default: "a value matching one of the rule's value patterns"
    }
  }

  /// Where the secret was found and how to keep it out.
  public var description: String {
    "Refusing to write \(file): \(what) appears \(form) in \(location). "
      + "Redact the header, query parameter or JSON key that carries it "
      + "(FixtureRedaction(headers:queryParameters:jsonKeys:))."
  }
}
