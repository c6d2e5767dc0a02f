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
          "decodeNullableDateTime(\(key))", "encodeDateTime(self.\(name), \(key))"
        )
      case (true, false, true):
        (decoded, encoded) = (
          "decodeDateTimeIfPresent(\(key))", "encodeDateTimeIfPresent(self.\(name), \(key))"
        )
      case (true, false, false):
        (decoded, encoded) = ("decodeDateTime(\(key))", "encodeDateTime(self.\(name), \(key))")
      case (false, true, _):
        (decoded, encoded) = (
          "decode(\(property.type.code)?.self, \(key))", "encode(self.\(name), \(key))"
        )
      case (false, false, true):
        (decoded, encoded) = (
          "decodeIfPresent(\(property.type.code).self, \(key))",
          "encodeIfPresent(self.\(name), \(key))"
        )
      case (false, false, false):
        (decoded, encoded) = (
          "decode(\(property.type.code).self, \(key))", "encode(self.\(name), \(key))"
        )
      }
      decode.append("  self.\(name) = try container.\(decoded)")
      encode.append("  try container.\(encoded)")
    }
    return decode + ["}", ""] + encode + ["}"]
  }

  /// The date-time coding the structs of one file share, private to the file so that files
  /// generated from several documents can be compiled together.
  static let dateTimeCoding = [
    "extension KeyedDecodingContainer {",
    "  /// An RFC 3339 date-time, with or without fractional seconds.",
    "  fileprivate func decodeDateTime(forKey key: Key) throws -> Date {",
    "    try dateTime(decode(String.self, forKey: key), forKey: key)",
    "  }",
    "",
    "  fileprivate func decodeDateTimeIfPresent(forKey key: Key) throws -> Date? {",
    "    try decodeIfPresent(String.self, forKey: key).map { try dateTime($0, forKey: key) }",
    "  }",
    "",
    "  fileprivate func decodeNullableDateTime(forKey key: Key) throws -> Date? {",
    "    try decode(String?.self, forKey: key).map { try dateTime($0, forKey: key) }",
    "  }",
    "",
    "  private func dateTime(_ text: String, forKey key: Key) throws -> Date {",
    "    // RFC 3339 allows a lowercase `t` and `z`.",
    "    guard let date = try? Date(text.uppercased(), strategy: .iso8601) else {",
    "      throw DecodingError.dataCorruptedError(",
    "        forKey: key, in: self, debugDescription: \"Not an RFC 3339 date-time: \\(text)\")",
    "    }",
    "    return date",
    "  }",
    "}",
    "",
    "extension KeyedEncodingContainer {",
    "  /// RFC 3339 in UTC, fractional seconds only when it has them; `null` for `nil`.",
    "  fileprivate mutating func encodeDateTime(_ date: Date?, forKey key: Key) throws {",
    "    guard let date else { return try encodeNil(forKey: key) }",
    "    let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970",
    "    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: !whole)",
    "    try encode(date.formatted(style), forKey: key)",
    "  }",
    "",
    "  fileprivate mutating func encodeDateTimeIfPresent(_ date: Date?, forKey key: Key) throws {",
    "    if let date { try encodeDateTime(date, forKey: key) }",
    "  }",
    "}",
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
