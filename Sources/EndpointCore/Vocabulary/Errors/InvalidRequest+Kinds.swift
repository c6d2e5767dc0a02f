import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The SDK's own refusals, one sentence each, so every module and both transports word a kind
// the same way.
extension InvalidRequest {
  /// A URL that could not be built from `input` (a URL string, a path or a query item), or is
  /// not one a transport sends.
  static func invalidURL(
    _ input: String, reason: String, method: HTTPMethod? = nil, url: URL? = nil
  ) -> Self {
    Self(.url, reason: reason, input: input, method: method, url: url)
  }

  /// A method that is not an RFC 9110 token.
  static func invalidMethod(_ method: HTTPMethod, url: URL? = nil) -> Self {
    Self(
      .method, subject: "Invalid HTTP method \(HTTPToken.quotedForMessage(method.rawValue))",
      reason: "a method must be a non-empty RFC 9110 token", method: method, url: url)
  }

  /// A header field name that is empty or holds a character outside RFC 9110's `tchar` set.
  static func headerFieldNameNotAToken(_ name: String) -> Self {
    Self(
      .headerField, subject: "Invalid header field name \(HTTPToken.quotedForMessage(name))",
      reason: "a name must be a non-empty RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~)",
      fieldName: name)
  }

  /// A header field value holding `character` (`"CR"`, `"LF"` or `"NUL"`), which would end the
  /// field; the value itself is not kept.
  static func headerFieldValue(named name: String, contains character: String) -> Self {
    Self(
      .headerField,
      subject: "Invalid value for header field \(HTTPToken.quotedForMessage(name))",
      reason: "it contains \(character), which a field value must not contain", fieldName: name)
  }

  /// A timeout that is zero or negative.
  static func invalidTimeout(_ timeout: Duration) -> Self {
    Self(
      .timeout, subject: "Invalid timeout \(timeout)",
      reason: "a timeout must be greater than zero; use nil for the client's default",
      timeout: timeout)
  }

  /// A ``RequestOptions`` setting no transfer can use.
  static func invalidOption(_ name: String, value: String, reason: String) -> Self {
    Self(
      .option, subject: "Invalid request option \(name) = \(value)", reason: reason,
      setting: name, value: value)
  }

  /// A multipart boundary that cannot delimit the body.
  static func invalidBoundary(_ boundary: String, reason: String) -> Self {
    Self(
      .multipartBoundary,
      subject: "Invalid multipart boundary \(HTTPToken.quotedForMessage(boundary))",
      reason: reason, input: boundary)
  }

  /// A public-key pin that is not the base64 text of a 32-byte SHA-256 digest; a digest is
  /// public, so the text is kept whole up to 100 characters.
  static func invalidPublicKeyPin(_ text: String) -> Self {
    let text = String(text.prefix(100))
    return Self(
      .publicKeyPin, subject: "invalid public-key pin \"\(text)\"",
      reason: "expected sha256// followed by the base64 text of a 32-byte SHA-256 digest",
      input: text)
  }

  /// A body file that could not be opened or read.
  static func unreadableBodyFile(_ fileURL: URL, reason: String) -> Self {
    Self(.body, reason: reason, fileURL: fileURL)
  }
}
