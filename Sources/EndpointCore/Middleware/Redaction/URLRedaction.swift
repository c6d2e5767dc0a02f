#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Shows a URL without the credentials it may carry, for error messages and logs.
///
/// The user information (`user:password@`) and the values of query items that usually hold
/// secrets (`access_token`, `api_key`, `signature` and the like), in the query, as
/// `name=value` pairs in the fragment (`#access_token=…`) or as path parameters
/// (`/app;jsessionid=…`), are replaced by ``HTTPFields/redactedValue``. A value that,
/// percent-decoded, is itself a URL (`?next=https%3A%2F%2Fme%3Apw%40…`, `?redirect_uri=https://…`)
/// loses the same parts, up to three URLs deep (a value deeper still is hidden whole); every
/// other byte is kept as it was.
///
/// ```swift
/// let url = URL(string: "https://me:pw@api.example.com/items?api_key=abc&page=2")!
/// Redaction.redacted(url)
/// // "https://<redacted>@api.example.com/items?api_key=<redacted>&page=2"
/// ```
enum URLRedaction {
  /// Query item names (lowercased) whose values are always redacted; the SDK's rule
  /// (``Redaction/isSecretQueryName(_:)``) adds any name containing `token`, `secret` or
  /// `password`, session and CSRF identifiers and the like.
  static let sensitiveQueryNames: Set<String> = [
    "key", "api_key", "apikey", "api-key", "access_key", "auth", "authorization", "code",
    "sig", "signature", "pwd", "passwd", "credential", "x-amz-credential", "x-amz-signature",
  ]

  /// Whether a query item called `name` (after percent-decoding, in any case) holds a secret
  /// under the SDK's rule (``Redaction/isSecretQueryName(_:)``).
  ///
  /// - Parameters:
  ///   - name: the query item's name, as it appears in the URL.
  ///   - additionalNames: more query item names to redact, in any case.
  static func isSensitiveQueryName(
    _ name: String,
    additionalNames: Set<String> = []
  ) -> Bool {
    let lowered = PercentEncoding.decode(name).lowercased()
    if sensitiveQueryNames.contains(lowered) || Redaction.isSecretQueryName(lowered) {
      return true
    }
    return additionalNames.contains { $0.lowercased() == lowered }
  }

  /// The URL's text with its user information and sensitive query values redacted.
  ///
  /// - Parameters:
  ///   - url: the URL to show.
  ///   - additionalQueryNames: more query item names whose values to redact, in any case.
  /// - Returns: text for people to read; it is not meant to be parsed back into a URL.
  static func redacted(_ url: URL, additionalQueryNames: Set<String> = []) -> String {
    redacted(url, hidingUserInfo: true) { name in
      isSensitiveQueryName(name, additionalNames: additionalQueryNames)
    }
  }

  /// The URL's text with its user information (when `hidingUserInfo`) and the values of the
  /// query items whose raw name `hidesQueryItem` accepts replaced by ``HTTPFields/redactedValue``.
  static func redacted(
    _ url: URL,
    hidingUserInfo: Bool,
    hidesQueryItem: (String) -> Bool
  ) -> String {
    var removed: [String] = []
    return redacted(
      text: url.absoluteString,
      hidingUserInfo: hidingUserInfo,
      replacement: HTTPFields.redactedValue,
      hidesQueryItem: hidesQueryItem,
      removed: &removed
    )
  }

  /// A URL's text (absolute or relative) with its user information (when `hidingUserInfo`)
  /// and the values of the query items whose raw name `hidesQueryItem` accepts replaced by
  /// `replacement`; the values taken out (decoded) are added to `removed`.
  ///
  /// A value that is not hidden but, percent-decoded, is itself a URL (`?next=https%3A%2F%2F…`)
  /// is redacted by the same rule, up to `Cutter.nestingLimit` URLs deep; its secrets are replaced
  /// where they stand in the outer text, so every other byte stays as it was.
  static func redacted(
    text: String,
    hidingUserInfo: Bool,
    replacement: String,
    hidesQueryItem: (String) -> Bool,
    removed: inout [String]
  ) -> String {
    let bytes = Array(text.utf8)
    let cuts = withoutActuallyEscaping(hidesQueryItem) { hides in
      var cutter = Cutter(
        hidingUserInfo: hidingUserInfo, replacement: replacement, hidesQueryItem: hides)
      let cuts = cutter.cuts(in: bytes[...], depth: 0)
      removed += cutter.removed
      return cuts
    }
    return replacing(cuts, in: bytes, of: text, with: replacement)
  }

  /// A query, form or path-parameter value that is not a secret itself, with the user
  /// information and secret query values of a URL it holds (percent-encoded or as it is)
  /// replaced by `replacement`, as ``redacted(_:additionalQueryNames:)`` treats such a value
  /// inside a URL; any other value unchanged. The values taken out (decoded) are added to
  /// `removed`.
  static func redacted(
    value: String,
    replacement: String = HTTPFields.redactedValue,
    hidesQueryItem: (String) -> Bool = { isSensitiveQueryName($0) },
    removed: inout [String]
  ) -> String {
    let bytes = Array(value.utf8)
    let cuts = withoutActuallyEscaping(hidesQueryItem) { hides in
      var cutter = Cutter(hidingUserInfo: true, replacement: replacement, hidesQueryItem: hides)
      let cuts = cutter.valueCuts(bytes[...], depth: 0)
      removed += cutter.removed
      return cuts
    }
    return replacing(cuts, in: bytes, of: value, with: replacement)
  }

  /// A query value shown by the SDK's rule: ``redacted(value:replacement:hidesQueryItem:removed:)``
  /// with ``HTTPFields/redactedValue`` and the standard names.
  static func redacted(value: String) -> String {
    var removed: [String] = []
    return redacted(value: value, removed: &removed)
  }

  private static func replacing(
    _ cuts: [Range<Int>],
    in bytes: [UInt8],
    of text: String,
    with replacement: String
  ) -> String {
    guard !cuts.isEmpty else { return text }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + cuts.count * replacement.utf8.count)
    var position = 0
    for cut in cuts.sorted(by: { $0.lowerBound < $1.lowerBound }) where cut.lowerBound >= position {
      output += bytes[position..<cut.lowerBound]
      output += replacement.utf8
      position = cut.upperBound
    }
    output += bytes[position...]
    return String(decoding: output, as: UTF8.self)
  }
}
