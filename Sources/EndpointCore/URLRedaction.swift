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
/// (`/app;jsessionid=…`), are replaced by ``HTTPFields/redactedValue``.
///
/// ```swift
/// let url = URL(string: "https://me:pw@api.example.com/items?api_key=abc&page=2")!
/// URLRedaction.redacted(url)
/// // "https://<redacted>@api.example.com/items?api_key=<redacted>&page=2"
/// ```
public enum URLRedaction {
  /// Query item names (lowercased) whose values are always redacted; the SDK's rule
  /// (``Redaction/isSecretQueryName(_:)``) adds any name containing `token`, `secret` or
  /// `password`, session and CSRF identifiers and the like.
  public static let sensitiveQueryNames: Set<String> = [
    "key", "api_key", "apikey", "api-key", "access_key", "auth", "authorization", "code",
    "sig", "signature", "pwd", "passwd", "credential", "x-amz-credential", "x-amz-signature",
  ]

  /// Whether a query item called `name` (after percent-decoding, in any case) holds a secret
  /// under the SDK's rule (``Redaction/isSecretQueryName(_:)``).
  ///
  /// - Parameters:
  ///   - name: the query item's name, as it appears in the URL.
  ///   - additionalNames: more query item names to redact, in any case.
  public static func isSensitiveQueryName(
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
  public static func redacted(_ url: URL, additionalQueryNames: Set<String> = []) -> String {
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
  package static func redacted(
    text: String,
    hidingUserInfo: Bool,
    replacement: String,
    hidesQueryItem: (String) -> Bool,
    removed: inout [String]
  ) -> String {
    var rest = Substring(text)
    var result = ""
    result.reserveCapacity(text.utf8.count)
    // scheme://[userinfo@]authority
    if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
      let authorityStart = rest.index(colon, offsetBy: 3)
      result += rest[..<authorityStart]
      rest = rest[authorityStart...]
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
      let authority = rest[..<authorityEnd]
      if hidingUserInfo, let at = authority.lastIndex(of: "@") {
        let userInfo = authority[..<at]
        if userInfo != Substring(replacement) {
          if let colon = userInfo.firstIndex(of: ":") {
            removed.append(
              PercentEncoding.decode(String(userInfo[userInfo.index(after: colon)...])))
          }
          removed.append(PercentEncoding.decode(String(userInfo)))
        }
        result += replacement
        result += authority[at...]
      } else {
        result += authority
      }
      rest = rest[authorityEnd...]
    }
    var fragment: Substring = ""
    if let hash = rest.firstIndex(of: "#") {
      fragment = rest[hash...]
      rest = rest[..<hash]
    }
    // `name=value` pairs after `#` hold secrets too: an OAuth implicit grant's
    // `#access_token=…` in a redirect's `Location`.
    if fragment.contains("=") {
      let pairs = redactedPairs(
        fragment.dropFirst(), replacement: replacement, hidesQueryItem: hidesQueryItem,
        removed: &removed)
      fragment = Substring("#" + pairs)
    }
    // Path parameters (`/app;jsessionid=…`, RFC 3986 section 3.3) carry session identifiers.
    let pathEnd = rest.firstIndex(of: "?") ?? rest.endIndex
    if rest[..<pathEnd].contains(";") {
      result += redactedPathParameters(
        rest[..<pathEnd], replacement: replacement, hidesQueryItem: hidesQueryItem,
        removed: &removed)
      rest = rest[pathEnd...]
    }
    guard let mark = rest.firstIndex(of: "?") else {
      return result + rest + fragment
    }
    result += rest[...mark]
    result += redactedPairs(
      rest[rest.index(after: mark)...], replacement: replacement,
      hidesQueryItem: hidesQueryItem, removed: &removed)
    return result + fragment
  }

  /// A path whose `;name=value` parameters have the values of the names `hidesQueryItem`
  /// accepts replaced by `replacement`; the values taken out (decoded) are added to `removed`.
  private static func redactedPathParameters(
    _ path: Substring,
    replacement: String,
    hidesQueryItem: (String) -> Bool,
    removed: inout [String]
  ) -> String {
    var segments: [String] = []
    for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
      var parts: [String] = []
      for (index, part) in segment.split(separator: ";", omittingEmptySubsequences: false)
        .enumerated()
      {
        guard index > 0, let equals = part.firstIndex(of: "="),
          hidesQueryItem(String(part[..<equals]))
        else {
          parts.append(String(part))
          continue
        }
        let value = part[part.index(after: equals)...]
        if value != Substring(replacement) {
          removed.append(PercentEncoding.decode(String(value)))
        }
        parts.append(part[...equals] + replacement)
      }
      segments.append(parts.joined(separator: ";"))
    }
    return segments.joined(separator: "/")
  }

  /// `name=value` pairs joined by `&` with the values of the names `hidesQueryItem` accepts
  /// replaced by `replacement`; the values taken out (decoded) are added to `removed`.
  private static func redactedPairs(
    _ pairs: Substring,
    replacement: String,
    hidesQueryItem: (String) -> Bool,
    removed: inout [String]
  ) -> String {
    var result = ""
    var first = true
    for item in pairs.split(separator: "&", omittingEmptySubsequences: false) {
      if !first { result += "&" }
      first = false
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = parts[0]
      if name.count < item.count, hidesQueryItem(String(name)) {
        if parts.count > 1, parts[1] != Substring(replacement) {
          removed.append(Redaction.decodeFormComponent(parts[1]))
        }
        result += name
        result += "="
        result += replacement
      } else {
        result += item
      }
    }
    return result
  }
}
