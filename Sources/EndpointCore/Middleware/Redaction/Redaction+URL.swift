#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Redaction {
  /// Query item names (lowercased) whose values are always redacted in a shown URL; the SDK's
  /// rule (``Redaction/isSecretQueryName(_:)``) adds any name containing `token`, `secret` or
  /// `password`, session and CSRF identifiers and the like.
  public static let sensitiveQueryNames: Set<String> = URLRedaction.sensitiveQueryNames

  /// Whether a query item called `name` (after percent-decoding, in any case) holds a secret
  /// under the SDK's rule: one of ``sensitiveQueryNames``, a name
  /// ``Redaction/isSecretQueryName(_:)`` calls secret, or one of `additionalNames`.
  ///
  /// - Parameters:
  ///   - name: the query item's name, as it appears in the URL.
  ///   - additionalNames: more query item names to redact, in any case.
  public static func isSensitiveQueryName(
    _ name: String,
    additionalNames: Set<String> = []
  ) -> Bool {
    URLRedaction.isSensitiveQueryName(name, additionalNames: additionalNames)
  }

  /// A URL's text without the credentials it may carry, for error messages and logs.
  ///
  /// The user information (`user:password@`) and the values of query items that usually hold
  /// secrets (``isSensitiveQueryName(_:additionalNames:)``), in the query, as `name=value`
  /// pairs in the fragment (`#access_token=…`) or as path parameters (`/app;jsessionid=…`),
  /// are replaced by ``HTTPFields/redactedValue``. A value that, percent-decoded, is itself a
  /// URL (`?next=https%3A%2F%2Fme%3Apw%40…`) loses the same parts, up to three URLs deep (a
  /// value deeper still is hidden whole); every other byte is kept as it was.
  ///
  /// ```swift
  /// let url = URL(string: "https://me:pw@api.example.com/items?api_key=abc&page=2")!
  /// Redaction.redacted(url)
  /// // "https://<redacted>@api.example.com/items?api_key=<redacted>&page=2"
  /// ```
  ///
  /// - Parameters:
  ///   - url: the URL to show.
  ///   - additionalQueryNames: more query item names whose values to redact, in any case.
  /// - Returns: text for people to read; it is not meant to be parsed back into a URL.
  public static func redacted(_ url: URL, additionalQueryNames: Set<String> = []) -> String {
    URLRedaction.redacted(url, additionalQueryNames: additionalQueryNames)
  }
}
