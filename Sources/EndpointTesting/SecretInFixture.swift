/// A fixture was not written because a registered secret still appears in it.
///
/// The secret itself is never shown: the description names it by its position in
/// ``FixtureRedaction/secrets`` and says where and in which form it was found.
public struct SecretInFixture: Error, Sendable, Hashable, CustomStringConvertible {
  /// The fixture file that was not written.
  public let file: String
  /// The secret's position in ``FixtureRedaction/secrets``, from 1.
  public let secret: Int
  /// The form it was found in: `as written`, `percent-encoded`, `form-encoded`, `JSON-escaped`
  /// or `base64`.
  public let form: String
  /// Where: `interaction 2 request`, `interaction 2 response`.
  public let location: String

  /// Creates the error.
  public init(file: String, secret: Int, form: String, location: String) {
    self.file = file
    self.secret = secret
    self.form = form
    self.location = location
  }

  /// Where the secret was found and how to keep it out.
  public var description: String {
    "Refusing to write \(file): registered secret #\(secret) appears \(form) in \(location). "
      + "Redact the header, query parameter or JSON key that carries it "
      + "(FixtureRedaction(headers:queryParameters:jsonKeys:))."
  }
}
