import Foundation

/// What a ``ReplayClient`` removes before anything reaches a fixture file, and the secrets it
/// makes sure are gone.
///
/// The credentials the core redacts everywhere are always redacted: header fields in
/// `HTTPFields.sensitiveNames` (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`,
/// API key fields, names containing `token`, `secret` or `password`) and query parameters that
/// `URLRedaction` considers secret (`api_key`, `access_token`, `signature`, …). Name more
/// headers, query parameters and JSON keys (at any depth, in request and response bodies);
/// their values become `<redacted>`, and replay matches them whatever their value.
/// Register the secret values themselves too: writing refuses with ``SecretInFixture`` if one
/// still appears anywhere, as written, percent-encoded or base64.
///
/// ```swift
/// let redaction = FixtureRedaction(
///   headers: ["X-Api-Key"],
///   queryParameters: ["api_key"],
///   jsonKeys: ["access_token", "refresh_token"],
///   secrets: [ProcessInfo.processInfo.environment["API_TOKEN"] ?? ""]
/// )
/// ```
public struct FixtureRedaction: Sendable, Hashable {
  /// Header fields redacted besides the default credential fields, in any case.
  public var headers: Set<String>
  /// Query parameters (and form fields of `application/x-www-form-urlencoded` bodies) redacted
  /// besides the ones `URLRedaction` always redacts.
  public var queryParameters: Set<String>
  /// JSON object keys whose values are redacted, at any depth, ignoring case.
  public var jsonKeys: Set<String>
  /// Secret values that must never appear in a fixture; empty strings are ignored.
  public var secrets: [String]

  /// Creates a redaction policy on top of the default credential headers.
  public init(
    headers: Set<String> = [],
    queryParameters: Set<String> = [],
    jsonKeys: Set<String> = [],
    secrets: [String] = []
  ) {
    self.headers = headers
    self.queryParameters = queryParameters
    self.jsonKeys = jsonKeys
    self.secrets = secrets
  }

  private static let redacted = HTTPFields.redactedValue

  func redact(_ request: Fixture.Request) -> Fixture.Request {
    var copy = request
    copy.headerFields = request.headerFields.redacted(additionalNames: headers)
    copy.url = redactQuery(of: request.url)
    copy.body = redactBody(request.body, fields: request.headerFields)
    return copy
  }

  func redact(_ response: Fixture.Response) -> Fixture.Response {
    var copy = response
    copy.headerFields = response.headerFields.redacted(additionalNames: headers)
    copy.body = redactBody(response.body, fields: response.headerFields)
    return copy
  }

  private func isRedactedParameter(_ name: String) -> Bool {
    URLRedaction.isSensitiveQueryName(name, additionalNames: queryParameters)
  }

  private func redactQuery(of url: URL) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
      let query = components.percentEncodedQuery
    else { return url }
    components.percentEncodedQuery = redactPairs(query)
    return components.url ?? url
  }

  /// Redacts `name=value` pairs joined by `&`, keeping every other byte as it was.
  private func redactPairs(_ text: String) -> String {
    text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0]).replacingOccurrences(of: "+", with: " ")
      let decoded = name.removingPercentEncoding ?? name
      guard parts.count == 2, isRedactedParameter(decoded) else { return String(pair) }
      return "\(parts[0])=%3Credacted%3E"
    }.joined(separator: "&")
  }

  private func redactBody(_ body: Data, fields: HTTPFields) -> Data {
    guard !body.isEmpty else { return body }
    let mediaType = FixtureCoding.mediaType(fields)
    if !jsonKeys.isEmpty, FixtureCoding.isJSON(mediaType) || mediaType == nil,
      let tree = JSONTree(parsing: body)
    {
      let keys = Set(jsonKeys.map { $0.lowercased() })
      return Data(tree.redactingKeys(keys, with: .string(FixtureRedaction.redacted)).compact.utf8)
    }
    if mediaType == "application/x-www-form-urlencoded",
      let text = String(validating: body, as: UTF8.self)
    {
      return Data(redactPairs(text).utf8)
    }
    return body
  }

  /// Throws if a registered secret appears in `fixture`, checking each interaction.
  func check(_ fixture: Fixture, file: String) throws(SecretInFixture) {
    let needles = secrets.enumerated().filter { !$0.element.isEmpty }.map {
      ($0.offset + 1, FixtureRedaction.forms(of: $0.element))
    }
    guard !needles.isEmpty else { return }
    for (index, interaction) in fixture.interactions.enumerated() {
      let parts: [(String, JSONTree?)] = [
        ("request", FixtureCoding.tree(for: interaction.request)),
        ("response", interaction.response.map(FixtureCoding.tree(for:))),
        ("error", interaction.error.map(JSONTree.string)),
      ]
      for case (let part, let tree?) in parts {
        // Search the text as written to disk, plus the raw bodies, which base64 would hide.
        var haystacks = [Data(tree.formatted().utf8)]
        if part == "request" { haystacks.append(interaction.request.body) }
        if part == "response", let body = interaction.response?.body { haystacks.append(body) }
        for (secret, forms) in needles {
          for (form, needle) in forms
          where haystacks.contains(where: { $0.range(of: needle) != nil }) {
            throw SecretInFixture(
              file: file,
              secret: secret,
              form: form,
              location: "interaction \(index + 1) \(part)"
            )
          }
        }
      }
    }
  }

  /// The byte strings a secret can take in a fixture.
  static func forms(of secret: String) -> [(String, Data)] {
    let bytes = Data(secret.utf8)
    var forms: [(String, Data)] = [("as written", bytes)]
    let escaped = String(JSONTree.quoted(secret).dropFirst().dropLast())
    if escaped != secret { forms.append(("JSON-escaped", Data(escaped.utf8))) }
    let percent = percentEncoded(bytes, uppercase: true)
    if percent != secret {
      forms.append(("percent-encoded", Data(percent.utf8)))
      forms.append(("percent-encoded", Data(percentEncoded(bytes, uppercase: false).utf8)))
      let form = percent.replacingOccurrences(of: "%20", with: "+")
      if form != percent { forms.append(("form-encoded", Data(form.utf8))) }
    }
    for fragment in base64Fragments(of: bytes) {
      forms.append(("base64", Data(fragment.utf8)))
      let url = fragment.replacingOccurrences(of: "+", with: "-").replacingOccurrences(
        of: "/", with: "_")
      if url != fragment { forms.append(("base64", Data(url.utf8))) }
    }
    return forms
  }

  private static func percentEncoded(_ bytes: Data, uppercase: Bool) -> String {
    let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
    var result = ""
    for byte in bytes {
      let scalar = Unicode.Scalar(byte)
      if byte < 0x80,
        scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
          || "-._~".unicodeScalars.contains(scalar)
      {
        result.unicodeScalars.append(scalar)
      } else {
        result += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
      }
    }
    return result
  }

  /// The base64 characters that depend only on the secret, for each of the three alignments it
  /// can have inside a longer encoded value (such as `user:secret` in a Basic credential).
  private static func base64Fragments(of bytes: Data) -> [String] {
    var fragments: [String] = []
    for offset in 0..<3 {
      let padded = Data(repeating: 0, count: offset) + bytes
      let encoded = Array(padded.base64EncodedString())
      let start = (offset * 8 + 5) / 6
      let end = ((offset + bytes.count) * 8) / 6
      guard end - start >= 4 else { continue }
      fragments.append(String(encoded[start..<end]))
    }
    return fragments
  }
}

extension JSONTree {
  /// A copy with the value of every member whose lowercased key is in `keys` replaced.
  func redactingKeys(_ keys: Set<String>, with replacement: JSONTree) -> JSONTree {
    switch self {
    case .array(let items):
      return .array(items.map { $0.redactingKeys(keys, with: replacement) })
    case .object(let members):
      return .object(
        members.map { key, value in
          keys.contains(key.lowercased())
            ? (key, replacement) : (key, value.redactingKeys(keys, with: replacement))
        }
      )
    default:
      return self
    }
  }
}
