/// The SDK's one rule for what a secret is, and what is hidden wherever a request, a response or
/// an error is shown or stored: log lines, `curl` renderings, error descriptions and (in
/// EndpointTesting) fixture files.
///
/// ``standard`` hides, ignoring case:
/// - header fields, query items, form and multipart fields and JSON object keys (at any depth)
///   whose name is a credential: `password`, `passwd`, `secret`, `token`, `access_token`,
///   `refresh_token`, `id_token`, `client_secret`, `api_key`/`apikey`/`api-key`,
///   `authorization`, `cookie`, session and CSRF identifiers (`X-Session-Id`, `X-CSRF-Token`),
///   `auth` (`X-Auth`), and any name containing `token`, `secret` or `password`
///   (see ``isSecretName(_:)``);
/// - query items and form fields called `key`, `code` or `sig` (an OAuth `code` in a
///   `Location`, an API key in a query; see ``isSecretQueryName(_:)``);
/// - the user information of URLs (`https://user:password@host`), also in `Location`,
///   `Content-Location` and `Referer` values, the targets of `Link` and URLs in JSON string
///   values (their secret query items too);
/// - values that look like credentials whatever their name: JSON Web Tokens and the credential
///   of `Bearer …` and `Basic …`.
///
/// JSON bodies are recognised by their content, whatever their `Content-Type`. Add names, secret
/// values and prefixes, or turn a default off for one name:
///
/// ```swift
/// let redaction = Redaction.standard
///   .adding(
///     headerNames: ["X-Shop-Key"], queryParameterNames: ["sig"], jsonKeys: ["pin"]
///   )
///   .adding(secretPrefixes: ["sk_live_"])
///   .allowing(["token_type"])  // keep `"token_type": "Bearer"` readable
/// print(request.curlCommand(redacting: redaction))
/// ```
public struct Redaction: Sendable, Hashable {
  /// Header fields whose values are replaced by ``HTTPFields/redactedValue``, lowercased.
  public private(set) var headerNames: Set<String>
  /// Query parameters (and form and multipart fields) whose values are replaced, lowercased.
  public private(set) var queryParameterNames: Set<String>
  /// JSON object keys whose values are replaced at any depth, lowercased.
  public private(set) var jsonKeys: Set<String> = []
  /// Names the default rule no longer hides, lowercased (see ``allowing(_:)``).
  public private(set) var allowedNames: Set<String> = []
  /// Values hidden wherever they appear in a body or a text, whatever their name.
  private(set) var valuePatterns: [ValuePattern] = []
  /// Whether the default rule applies (``isSecretName(_:)`` and its siblings, URL user
  /// information, JSON Web Tokens and `Bearer` credentials). On in ``standard``.
  public private(set) var hidesLikelySecrets = false

  /// Creates a redaction that hides exactly the given names (ignoring case), without the
  /// default rule.
  ///
  /// - Parameters:
  ///   - headerNames: header fields to hide; ``HTTPFields/sensitiveNames`` are not added for you.
  ///   - queryParameterNames: query parameters, form and multipart fields to hide.
  ///   - jsonKeys: JSON object keys to hide, at any depth.
  public init(
    headerNames: Set<String> = [],
    queryParameterNames: Set<String> = [],
    jsonKeys: Set<String> = []
  ) {
    self.headerNames = Set(headerNames.map { $0.lowercased() })
    self.queryParameterNames = Set(queryParameterNames.map { $0.lowercased() })
    self.jsonKeys = Set(jsonKeys.map { $0.lowercased() })
  }

  /// The default: the SDK's rule for secrets (see ``Redaction``), used by logs, `curl`
  /// renderings, error descriptions and fixtures alike.
  public static let standard: Redaction = {
    var standard = Redaction(
      headerNames: HTTPFields.sensitiveNames.union(["x-api-key", "api-key", "x-auth-token"]),
      queryParameterNames: [
        "access_token", "api_key", "apikey", "client_secret", "key", "password", "secret",
        "signature", "token",
      ]
    )
    standard.hidesLikelySecrets = true
    standard.valuePatterns = [.jsonWebToken, .authorizationCredential]
    return standard
  }()

  /// Hides nothing: for a `curl` command that must be run as is. Never use it for logs.
  public static let none = Redaction()

  /// A copy that also hides the given header fields, query parameters (and form and multipart
  /// fields) and JSON keys.
  public func adding(
    headerNames: Set<String> = [],
    queryParameterNames: Set<String> = [],
    jsonKeys: Set<String> = []
  ) -> Redaction {
    var copy = self
    copy.headerNames.formUnion(headerNames.map { $0.lowercased() })
    copy.queryParameterNames.formUnion(queryParameterNames.map { $0.lowercased() })
    copy.jsonKeys.formUnion(jsonKeys.map { $0.lowercased() })
    copy.allowedNames.subtract(
      headerNames.union(queryParameterNames).union(jsonKeys).map { $0.lowercased() })
    return copy
  }

  /// A copy that also hides `names` everywhere: as header fields, query parameters, form and
  /// multipart fields and JSON keys.
  public func adding(names: Set<String>) -> Redaction {
    adding(headerNames: names, queryParameterNames: names, jsonKeys: names)
  }

  /// A copy that also hides these values wherever they appear in a body or a text, whatever
  /// field holds them.
  ///
  /// ```swift
  /// let redaction = Redaction.standard.adding(
  ///   secretValues: [environment["API_TOKEN"] ?? ""],  // this exact text
  ///   secretPrefixes: ["sk_live_"]                     // Stripe-style keys
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - secretValues: texts hidden exactly as written; an empty text hides nothing.
  ///   - secretPrefixes: prefixes hidden together with the token characters (letters, digits,
  ///     `-._~+/=`) that follow them; a prefix with nothing after it is kept.
  public func adding(secretValues: [String] = [], secretPrefixes: [String] = []) -> Redaction {
    var copy = self
    let patterns =
      secretValues.map(ValuePattern.exactly) + secretPrefixes.map(ValuePattern.prefixed)
    for pattern in patterns where !copy.valuePatterns.contains(pattern) {
      copy.valuePatterns.append(pattern)
    }
    return copy
  }

  /// A copy that shows `names` (ignoring case) even where the default rule would hide them,
  /// as header fields, query parameters, form fields and JSON keys alike.
  ///
  /// ```swift
  /// let redaction = Redaction.standard.allowing(["X-Csrf-Token"])
  /// ```
  public func allowing(_ names: Set<String>) -> Redaction {
    var copy = self
    let lowered = names.map { $0.lowercased() }
    copy.allowedNames.formUnion(lowered)
    copy.headerNames.subtract(lowered)
    copy.queryParameterNames.subtract(lowered)
    copy.jsonKeys.subtract(lowered)
    return copy
  }

  /// Whether the header field called `name` is hidden.
  public func hidesHeader(_ name: String) -> Bool {
    let lowered = name.lowercased()
    if headerNames.contains(lowered) { return true }
    return hidesLikelySecrets && !allowedNames.contains(lowered) && Self.isSecretHeaderName(name)
  }

  /// Whether the query parameter, form or multipart field called `name` (already decoded) is
  /// hidden.
  public func hidesQueryParameter(_ name: String) -> Bool {
    let lowered = name.lowercased()
    if queryParameterNames.contains(lowered) { return true }
    return hidesLikelySecrets && !allowedNames.contains(lowered) && Self.isSecretQueryName(name)
  }

  /// Whether the value of the JSON object key `name` is hidden.
  public func hidesJSONKey(_ name: String) -> Bool {
    let lowered = name.lowercased()
    if jsonKeys.contains(lowered) { return true }
    return hidesLikelySecrets && !allowedNames.contains(lowered) && Self.isSecretName(name)
  }
}
