#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// What EndpointTesting needs to write a fixture file no secret reaches: the rule applied to each
// part of a stored exchange, the values it took out (so they can be looked for everywhere
// else), and the credential-looking values it still finds.
extension Redaction {
  /// A part of an exchange as a fixture file stores it.
  package enum StoredPart: Sendable, Equatable {
    /// Header or trailer fields.
    case fields(HTTPFields)
    /// A URL's text; hidden values become `%3Credacted%3E`, so it stays a URL.
    case url(String)
    /// A body and its `Content-Type`; hidden form values become `%3Credacted%3E`, so a form
    /// stays a form.
    case body(Data, contentType: String?)
    /// An error's text.
    case text(String)
  }

  /// `part` with what this rule hides replaced; the values taken out are added to `removed`.
  package func redact(_ part: StoredPart, removed: inout [String]) -> StoredPart {
    let replacement = "%3Credacted%3E"
    switch part {
    case .fields(let fields):
      return .fields(redact(fields, removed: &removed))
    case .url(let text):
      return .url(redactURL(text: text, replacement: replacement, removed: &removed))
    case .body(let body, let contentType):
      let redacted = redactBody(
        body, contentType: contentType, formReplacement: replacement, removed: &removed)
      return .body(redacted, contentType: contentType)
    case .text(let text):
      return .text(redactText(text, removed: &removed))
    }
  }

  /// What the first of this rule's value patterns (JSON Web Tokens, `Bearer` and `Basic`
  /// credentials, secret values and prefixes) that matches in any of `texts` finds, worded for
  /// an error message ("a JSON Web Token"); `nil` when none matches.
  package func likelySecret(in texts: [Data]) -> String? {
    let texts = texts.map { Array($0) }
    for pattern in valuePatterns where texts.contains(where: { !pattern.ranges(in: $0).isEmpty }) {
      switch pattern {
      case .jsonWebToken: return "a JSON Web Token"
      case .authorizationCredential: return "a Bearer or Basic credential"
      default: return "a value matching one of the rule's value patterns"
      }
    }
    return nil
  }
}
