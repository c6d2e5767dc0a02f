import EndpointPrimitives
import Foundation

/// What a ``ReplayClient`` removes before anything reaches a fixture file (its
/// ``ReplayClient/redaction``), and the secrets it makes sure are gone.
///
/// Before writing, the fixture is checked: it is not written
/// (``TestDoubleFailure/Kind/secretInFixture``) if a registered secret, a value that looks like a
/// credential (a JSON Web Token, a `Bearer …` credential) or the value of a field redacted
/// earlier in the same recording still appears anywhere — as written, JSON-escaped,
/// percent-encoded or base64, in bodies decompressed and with JSON `\u` escapes decoded, and in
/// error texts.
struct FixtureRedaction: Sendable, Hashable {
  /// What is hidden in fixtures.
  let redaction: Redaction
  /// Secret values that must never appear in a fixture; empty strings are ignored.
  let secrets: [String]

  init(redaction: Redaction = .standard, secrets: [String] = []) {
    self.redaction = redaction
    self.secrets = secrets
  }

  /// A fixture with every interaction redacted, such as a HAR file saved by a browser.
  func redact(_ fixture: Fixture) -> Fixture {
    var removed: [String] = []
    return Fixture(
      interactions: fixture.interactions.map { interaction in
        Fixture.Interaction(
          request: redact(interaction.request, removed: &removed),
          response: interaction.response.map { redact($0, removed: &removed) },
          error: interaction.error.map { redact(error: $0, known: removed) }
        )
      }
    )
  }

  /// `request` redacted; the values taken out are added to `removed`.
  func redact(_ request: Fixture.Request, removed: inout [String]) -> Fixture.Request {
    var copy = request
    copy.headerFields = redact(fields: request.headerFields, removed: &removed)
    if case .url(let url) = redaction.redact(.url(request.url.absoluteString), removed: &removed) {
      copy.url = URL(string: url) ?? request.url
    }
    copy.body = redactBody(request.body, fields: &copy.headerFields, removed: &removed)
    return copy
  }

  /// `response` redacted; the values taken out are added to `removed`.
  func redact(_ response: Fixture.Response, removed: inout [String]) -> Fixture.Response {
    var copy = response
    copy.headerFields = redact(fields: response.headerFields, removed: &removed)
    copy.body = redactBody(response.body, fields: &copy.headerFields, removed: &removed)
    copy.trailerFields = response.trailerFields.map { redact(fields: $0, removed: &removed) }
    return copy
  }

  /// An error's text redacted by the rule, with the values redacted elsewhere in the same
  /// recording (`known`) hidden too.
  func redact(error: String, known: [String]) -> String {
    var removed: [String] = []
    guard case .text(var text) = redaction.redact(.text(error), removed: &removed) else {
      return error
    }
    for value in Set(known) where Self.isDistinctive(value) {
      text = text.replacingOccurrences(of: value, with: HTTPFields.redactedValue)
    }
    return text
  }

  private func redact(fields: HTTPFields, removed: inout [String]) -> HTTPFields {
    guard case .fields(let redacted) = redaction.redact(.fields(fields), removed: &removed) else {
      return fields
    }
    return redacted
  }

  /// A body redacted by the rule; a gzip body is read decompressed, and stored decompressed
  /// (its `Content-Encoding` removed) when something in it was redacted.
  private func redactBody(_ body: Data, fields: inout HTTPFields, removed: inout [String]) -> Data {
    guard !body.isEmpty else { return body }
    let contentType = fields["Content-Type"]
    func redacted(_ body: Data) -> Data {
      let part = redaction.redact(.body(body, contentType: contentType), removed: &removed)
      guard case .body(let redacted, _) = part else { return body }
      return redacted
    }
    if Gzip.isCompressed(body), let inflated = Gzip.decompress(body) {
      let result = redacted(inflated)
      guard result != inflated else { return body }
      fields.remove("Content-Encoding")
      return result
    }
    return redacted(body)
  }

  /// Whether a redacted value is distinctive enough to look for elsewhere: not a common word
  /// or a number that could appear by chance.
  static func isDistinctive(_ value: String) -> Bool {
    guard value.count >= 6, value != HTTPFields.redactedValue,
      value.contains(where: \.isLetter)
    else { return false }
    return value.contains(where: \.isNumber) || value.count >= 12
  }

  /// Throws if a registered secret, a credential-looking value or a value of `seen` (values
  /// redacted earlier in this recording) appears in `fixture`, checking each interaction.
  func check(
    _ fixture: Fixture, file: String, seen: [String] = []
  ) throws(TestDoubleFailure) {
    var needles = secrets.enumerated().filter { !$0.element.isEmpty }.map {
      (
        TestDoubleFailure.registeredSecret($0.offset + 1), $0.offset + 1,
        FixtureRedaction.forms(of: $0.element)
      )
    }
    let registered = Set(secrets)
    for value in Set(seen) where Self.isDistinctive(value) && !registered.contains(value) {
      needles.append(
        ("the value of a field redacted earlier in this recording", 0, Self.forms(of: value)))
    }
    for (index, interaction) in fixture.interactions.enumerated() {
      let parts: [(String, JSONTree?)] = [
        ("request", FixtureCoding.tree(for: interaction.request)),
        ("response", interaction.response.map(FixtureCoding.tree(for:))),
        ("error", interaction.error.map(JSONTree.string)),
      ]
      for case (let part, let tree?) in parts {
        // Search the text as written to disk, plus the raw bodies, which base64 would hide,
        // decompressed, and everything with JSON escapes decoded.
        var haystacks = [Data(tree.formatted().utf8)]
        var bodies: [Data] = []
        if part == "request" { bodies.append(interaction.request.body) }
        if part == "response", let body = interaction.response?.body { bodies.append(body) }
        for body in bodies {
          haystacks.append(body)
          if Gzip.isCompressed(body), let inflated = Gzip.decompress(body) {
            haystacks.append(inflated)
          }
        }
        haystacks += haystacks.compactMap { haystack in
          let unescaped = Data(JSONStringLiteral.unescape(Array(haystack)[...]))
          return unescaped == haystack ? nil : unescaped
        }
        let location = "interaction \(index + 1) \(part)"
        for (what, number, forms) in needles {
          for (form, needle) in forms
          where haystacks.contains(where: { $0.range(of: needle) != nil }) {
            throw .secretInFixture(
              file: file, number: number, form: form, location: location, what: what)
          }
        }
        if let what = redaction.likelySecret(in: haystacks) {
          throw .secretInFixture(
            file: file, number: 0, form: "as written", location: location, what: what)
        }
      }
    }
  }

  /// The byte strings a secret can take in a fixture.
  static func forms(of secret: String) -> [(String, Data)] {
    let bytes = Data(secret.utf8)
    var forms: [(String, Data)] = [("as written", bytes)]
    let escaped = String(JSONStringLiteral.quoted(secret).dropFirst().dropLast())
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

extension FixtureRedaction: CustomReflectable {
  /// The rule, and how many registered ``secrets`` there are, never their values, for
  /// `dump(_:)` and LLDB's `po`.
  var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "redaction": redaction,
        "secrets": "\(secrets.count) registered, values hidden",
      ],
      displayStyle: .struct)
  }
}
