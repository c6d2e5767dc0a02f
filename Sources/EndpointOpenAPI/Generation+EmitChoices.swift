/// The Swift source of the enum of a `oneOf` or `anyOf`.
extension Generation {
  func choiceLines(_ model: ModelDecl, _ choice: ChoiceDecl) -> [String] {
    let documented = options.accessLevel == .public
    // A case holding a struct is boxed, so a struct may hold the enum that holds it.
    let boxed = choice.cases.contains { if case .named(_, false) = $0.type { true } else { false } }
    let indirect = boxed ? "indirect " : ""
    var head = ["\(access)\(indirect)enum \(model.name): Codable, Sendable, Hashable {"]
    var sections: [[String]] = []
    var cases: [String] = []
    for item in choice.cases {
      if documented {
        if case .discriminator(let property) = choice.rule {
          let values = item.values.map { "`\(Self.escapedLiteral($0))`" }
          cases.append(
            "/// `\(Self.escapedLiteral(property))` is \(values.joined(separator: " or ")).")
        } else {
          cases.append("/// The `\(item.type.code)` variant.")
        }
      }
      cases.append("case \(SwiftNames.escaped(item.name))(\(item.type.code))")
    }
    if case .discriminator(let property) = choice.rule {
      if documented {
        cases.append(
          "/// Another `\(Self.escapedLiteral(property))` value, one added later, kept as it is.")
      }
      cases.append("case unknown(JSONValue)")
    }
    sections.append(cases)
    sections.append(choiceDecoder(model.name, choice))
    if documented { sections[sections.count - 1].insert("/// Decodes the variant.", at: 0) }
    var encode = ["\(access)func encode(to encoder: any Encoder) throws {", "  switch self {"]
    if documented { encode.insert("/// Encodes the variant's value.", at: 0) }
    for item in choice.cases {
      // A date-time is written by the wrapper, whatever the encoder's date strategy.
      let value = item.type.codingWrapper.map { "\($0)(wrappedValue: value)" } ?? "value"
      encode += [
        "  case .\(SwiftNames.escaped(item.name))(let value):",
        "    try \(value).encode(to: encoder)",
      ]
    }
    if case .discriminator = choice.rule {
      encode += ["  case .unknown(let value):", "    try value.encode(to: encoder)"]
    }
    sections.append(encode + ["  }", "}"])
    sections += model.nested.map(modelLines)
    if case .discriminator(let property) = choice.rule {
      sections.append([
        "private enum DiscriminatorKey: String, CodingKey {",
        "  case value = \"\(Self.escapedLiteral(property))\"",
        "}",
      ])
    }
    for (position, section) in sections.enumerated() {
      if position > 0 { head.append("") }
      head += section.map { $0.isEmpty ? "" : "  " + $0 }
    }
    head.append("}")
    return head
  }

  private func choiceDecoder(_ name: String, _ choice: ChoiceDecl) -> [String] {
    var lines = ["\(access)init(from decoder: any Decoder) throws {"]
    switch choice.rule {
    case .discriminator:
      lines += [
        "  let container = try decoder.container(keyedBy: DiscriminatorKey.self)",
        "  switch try container.decode(String.self, forKey: .value) {",
      ]
      for item in choice.cases {
        let values = item.values.map { "\"\(Self.escapedLiteral($0))\"" }
        lines += [
          "  case \(values.joined(separator: ", ")):",
          "    self = try .\(SwiftNames.escaped(item.name))(\(Self.decoding(item.type)))",
        ]
      }
      lines += [
        "  default:", "    self = try .unknown(JSONValue(from: decoder))", "  }", "}",
      ]
      return lines
    case .exactlyOne, .firstMatch:
      lines.append("  var matches: [Self] = []")
      for item in choice.cases {
        lines += [
          "  if let value = try? \(Self.decoding(item.type)) {",
          "    matches.append(.\(SwiftNames.escaped(item.name))(value))",
          "  }",
        ]
      }
      let exactlyOne = if case .exactlyOne = choice.rule { true } else { false }
      let message =
        exactlyOne
        ? "\"\\(matches.count) oneOf variants of \(name) match; one must.\""
        : "\"No anyOf variant of \(name) matches.\""
      lines += [
        exactlyOne
          ? "  guard matches.count == 1, let match = matches.first else {"
          : "  guard let match = matches.first else {",
        "    throw DecodingError.dataCorrupted(",
        "      DecodingError.Context(",
        "        codingPath: decoder.codingPath,",
        "        debugDescription: " + message + "))",
        "  }",
        "  self = match",
        "}",
      ]
      return lines
    }
  }

  /// The expression that decodes a variant of `type` from `decoder`: a date-time through the
  /// wrapper, so RFC 3339 text whatever the decoder's date strategy.
  static func decoding(_ type: TypeRef) -> String {
    type.codingWrapper.map { "\($0)<\(type.code)>(from: decoder).wrappedValue" }
      ?? "\(type.code)(from: decoder)"
  }
}
