/// Which header fields and query parameters are hidden wherever the middleware shows a request:
/// log lines and `curl` renderings.
///
/// Names are matched ignoring case. ``standard`` hides the credential fields
/// (``HTTPFields/sensitiveNames`` plus common API-key fields) and common secret query parameters;
/// add your own with ``adding(headerNames:queryParameterNames:)``:
///
/// ```swift
/// let redaction = Redaction.standard.adding(headerNames: ["X-Shop-Key"], queryParameterNames: ["sig"])
/// print(request.curlCommand(redacting: redaction))
/// ```
public struct Redaction: Sendable, Hashable {
  /// Header fields whose values are replaced by ``HTTPFields/redactedValue``, lowercased.
  public private(set) var headerNames: Set<String>
  /// Query parameters (and `application/x-www-form-urlencoded` body fields) whose values are
  /// replaced, lowercased.
  public private(set) var queryParameterNames: Set<String>
  /// Whether names that look secret also count: the rules of ``HTTPFields/isSensitive(_:additionalNames:)``
  /// and ``URLRedaction/isSensitiveQueryName(_:additionalNames:)`` (names containing `token`,
  /// `secret`, `password` and the like), the same ones errors use. On in ``standard``.
  public private(set) var hidesLikelySecrets = false

  /// Creates a redaction that hides exactly the given names (ignoring case).
  ///
  /// - Parameters:
  ///   - headerNames: header fields to hide; ``HTTPFields/sensitiveNames`` are not added for you.
  ///   - queryParameterNames: query parameters and form fields to hide.
  public init(headerNames: Set<String> = [], queryParameterNames: Set<String> = []) {
    self.headerNames = Set(headerNames.map { $0.lowercased() })
    self.queryParameterNames = Set(queryParameterNames.map { $0.lowercased() })
  }

  /// The default: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-API-Key`,
  /// `API-Key`, `X-Auth-Token`, and the query parameters `access_token`, `api_key`, `apikey`,
  /// `client_secret`, `key`, `password`, `secret`, `signature` and `token`.
  public static let standard: Redaction = {
    var standard = Redaction(
      headerNames: HTTPFields.sensitiveNames.union(["x-api-key", "api-key", "x-auth-token"]),
      queryParameterNames: [
        "access_token", "api_key", "apikey", "client_secret", "key", "password", "secret",
        "signature", "token",
      ]
    )
    standard.hidesLikelySecrets = true
    return standard
  }()

  /// Hides nothing: for a `curl` command that must be run as is. Never use it for logs.
  public static let none = Redaction()

  /// A copy that also hides the given header fields and query parameters.
  public func adding(
    headerNames: Set<String> = [],
    queryParameterNames: Set<String> = []
  ) -> Redaction {
    var copy = self
    copy.headerNames.formUnion(headerNames.map { $0.lowercased() })
    copy.queryParameterNames.formUnion(queryParameterNames.map { $0.lowercased() })
    return copy
  }

  /// Whether the header field called `name` is hidden.
  public func hidesHeader(_ name: String) -> Bool {
    headerNames.contains(name.lowercased())
      || (hidesLikelySecrets && HTTPFields.isSensitive(name))
  }

  /// Whether the query parameter or form field called `name` (already decoded) is hidden.
  public func hidesQueryParameter(_ name: String) -> Bool {
    queryParameterNames.contains(name.lowercased())
      || (hidesLikelySecrets && URLRedaction.isSensitiveQueryName(name))
  }
}
