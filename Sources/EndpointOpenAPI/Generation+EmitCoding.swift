/// The hand-written coding of a struct: required nullable properties and date-times.
extension Generation {
  static let foundationImport = [
    "#if canImport(FoundationEssentials)",
    "  import FoundationEssentials",
    "#else",
    "  import Foundation",
    "#endif",
  ]

  /// `init(from:)` and `encode(to:)` that tell a required nullable property from an optional
  /// one (it must be present, and `nil` is encoded as `null`) and read and write date-times as
  /// RFC 3339 text whatever the coder's date strategy.
  func emitCoding(_ properties: [PropertyDecl]) -> [String] {
    var decode = [
      "\(access)init(from decoder: any Decoder) throws {",
      "  let container = try decoder.container(keyedBy: CodingKeys.self)",
    ]
    var encode = [
      "\(access)func encode(to encoder: any Encoder) throws {",
      "  var container = encoder.container(keyedBy: CodingKeys.self)",
    ]
    if options.accessLevel == .public {
      decode.insert(
        "/// Decodes the value; a required property must be present, even if null.", at: 0)
      encode.insert("/// Encodes the value, `null` for a required property that is `nil`.", at: 0)
    }
    for property in properties {
      let name = SwiftNames.escaped(property.name)
      let key = "forKey: .\(name)"
      let (decoded, encoded): (String, String)
      switch (property.type == .dateTime, property.requiredNullable, property.optional) {
      case (true, true, _):
        (decoded, encoded) = (
          "Self.rfc3339NullableDate(container, .\(name))",
          "container.encode(self.\(name).map(Self.rfc3339Text), \(key))"
        )
      case (true, false, true):
        (decoded, encoded) = (
          "Self.rfc3339DateIfPresent(container, .\(name))",
          "container.encodeIfPresent(self.\(name).map(Self.rfc3339Text), \(key))"
        )
      case (true, false, false):
        (decoded, encoded) = (
          "Self.rfc3339Date(container, .\(name))",
          "container.encode(Self.rfc3339Text(self.\(name)), \(key))"
        )
      case (false, true, _):
        (decoded, encoded) = (
          "container.decode(\(property.type.code)?.self, \(key))",
          "container.encode(self.\(name), \(key))"
        )
      case (false, false, true):
        (decoded, encoded) = (
          "container.decodeIfPresent(\(property.type.code).self, \(key))",
          "container.encodeIfPresent(self.\(name), \(key))"
        )
      case (false, false, false):
        (decoded, encoded) = (
          "container.decode(\(property.type.code).self, \(key))",
          "container.encode(self.\(name), \(key))"
        )
      }
      decode.append("  self.\(name) = try \(decoded)")
      encode.append("  try \(encoded)")
    }
    var lines = decode + ["}", ""] + encode + ["}"]
    guard properties.contains(where: { $0.type == .dateTime }) else { return lines }
    // Only the helpers the struct calls: a model of a large API has many date-times.
    for (call, helper) in Self.dateTimeCoding
    where call == nil || decode.contains(where: { $0.contains(call! + "(") }) {
      lines += [""] + helper
    }
    return lines
  }

  /// The date-time coding of one struct, private to it so that the structs of one file, of
  /// one `--single-file` output or of several documents never declare it twice.
  /// Each helper with the call that needs it (`nil`: every struct with a date-time).
  static let dateTimeCoding: [(call: String?, lines: [String])] = [
    (
      "Self.rfc3339Date",
      [
        "/// An RFC 3339 date-time, with or without fractional seconds.",
        "private static func rfc3339Date(",
        "  _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys",
        ") throws -> Date {",
        "  try rfc3339Date(container.decode(String.self, forKey: key), container, key)",
        "}",
      ]
    ),
    (
      "Self.rfc3339DateIfPresent",
      [
        "/// An RFC 3339 date-time, `nil` when absent or null.",
        "private static func rfc3339DateIfPresent(",
        "  _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys",
        ") throws -> Date? {",
        "  try container.decodeIfPresent(String.self, forKey: key).map {",
        "    try rfc3339Date($0, container, key)",
        "  }",
        "}",
      ]
    ),
    (
      "Self.rfc3339NullableDate",
      [
        "/// An RFC 3339 date-time that must be present, `nil` when null.",
        "private static func rfc3339NullableDate(",
        "  _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys",
        ") throws -> Date? {",
        "  try container.decode(String?.self, forKey: key).map { try rfc3339Date($0, container, key) }",
        "}",
      ]
    ),
    (
      nil,
      [
        "private static func rfc3339Date(",
        "  _ text: String, _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys",
        ") throws -> Date {",
        "  // RFC 3339 allows a lowercase `t` and `z`.",
        "  guard let date = try? Date(text.uppercased(), strategy: .iso8601) else {",
        "    throw DecodingError.dataCorruptedError(",
        "      forKey: key, in: container, debugDescription: \"Not an RFC 3339 date-time: \\(text)\")",
        "  }",
        "  return date",
        "}",
        "",
        "/// RFC 3339 in UTC, fractional seconds only when the date has them.",
        "private static func rfc3339Text(_ date: Date) -> String {",
        "  let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970",
        "  return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))",
        "}",
      ]
    ),
  ]
}

extension ModelDecl {
  /// Whether this type or one nested in it has a date-time property.
  var usesDateTime: Bool {
    if case .object(let properties) = shape, properties.contains(where: { $0.type == .dateTime }) {
      return true
    }
    return nested.contains(where: \.usesDateTime)
  }
}
