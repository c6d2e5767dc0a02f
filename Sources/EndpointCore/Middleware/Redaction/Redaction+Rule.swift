extension Redaction {
  /// Whether `name` names a secret under the SDK's default rule, ignoring case: a header
  /// field, query item, form or multipart field, or JSON object key.
  ///
  /// True for `password`, `passwd`, `pwd`, `secret`, `token`, `access_token`, `refresh_token`,
  /// `id_token`, `client_secret`, `api_key`/`apikey`/`api-key`, `authorization`, `cookie`,
  /// `auth`, `session`, session identifiers (`X-Session-Id`), CSRF tokens, signatures,
  /// credentials, private and access keys, subscription and function keys
  /// (`Ocp-Apim-Subscription-Key`, `x-functions-key`), and any name containing `token`, `secret`
  /// or `password`; `-`, `_`, `.` and spaces between words do not matter (`X-Api_Key`).
  /// CORS fields (`Access-Control-…`) are not secrets.
  public static func isSecretName(_ name: String) -> Bool {
    var compact = ""
    var words: [String] = []
    var word = ""
    compact.reserveCapacity(name.utf8.count)
    for scalar in name.lowercased().unicodeScalars {
      if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        compact.unicodeScalars.append(scalar)
        word.unicodeScalars.append(scalar)
      } else if !word.isEmpty {
        words.append(word)
        word = ""
      }
    }
    if !word.isEmpty { words.append(word) }
    if compact.hasPrefix("accesscontrol") { return false }
    if secretNameParts.contains(where: { compact.contains($0) }) { return true }
    return words.contains { secretWords.contains($0) }
  }

  /// Whether the header field called `name` carries a secret under the default rule
  /// (``isSecretName(_:)``): `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`,
  /// `X-Api-Key`, `X-Auth`, `X-Session-Id`, `X-CSRF-Token` and the like.
  ///
  /// Transports use it to drop credential fields when a redirect leaves the origin.
  public static func isSecretHeaderName(_ name: String) -> Bool {
    isSecretName(name)
  }

  /// Whether the query item or form field called `name` (percent-decoded or not) carries a
  /// secret under the default rule: ``isSecretName(_:)``, plus `key`, `code` (an OAuth
  /// authorization code, as in a redirect's `Location`) and `sig`.
  public static func isSecretQueryName(_ name: String) -> Bool {
    let decoded = name.contains("%") ? PercentEncoding.decode(name) : name
    if secretQueryNames.contains(decoded.lowercased()) { return true }
    return isSecretName(decoded)
  }

  /// Parts of a name, with separators removed, that mark it as secret anywhere they appear.
  static let secretNameParts = [
    "token", "secret", "passw", "apikey", "accesskey", "privatekey", "credential", "sessionid",
    "sessid", "csrf", "xsrf", "cookie", "authorization", "signature", "xauth",
    // Azure API Management's `Ocp-Apim-Subscription-Key`, Azure Functions' `x-functions-key`.
    "subscriptionkey", "functionskey",
  ]

  /// Whole words (between separators) that mark a name as secret.
  static let secretWords: Set<String> = [
    "auth", "session", "sid", "sig", "pwd", "pass", "otp", "jwt", "bearer",
  ]

  /// Query and form names that are secret there, though too common as JSON keys (`code`).
  static let secretQueryNames: Set<String> = ["key", "code", "sig"]
}
