/// The hand-written coding of a struct with a required nullable property or additional
/// properties.
extension Generation {
  static let foundationImport = [
    "#if canImport(FoundationEssentials)",
    "  import FoundationEssentials",
    "#else",
    "  import Foundation",
    "#endif",
  ]

  /// `init(from:)` and `encode(to:)` that tell a required nullable property from an optional
  /// one (it must be present, and `nil` is encoded as `null`); date-times are coded by their
  /// `RFC3339` wrapper, as the synthesised coding would.
  func emitCoding(_ properties: [PropertyDecl], additional: TypeRef? = nil) -> [String] {
    var decode = [
      "\(access)init(from decoder: any Decoder) throws {",
      "  let container = try decoder.container(keyedBy: CodingKeys.self)",
    ]
    var encode = [
      "\(access)func encode(to encoder: any Encoder) throws {",
      "  var container = encoder.container(keyedBy: CodingKeys.self)",
    ]
    if options.accessLevel == .public {
      let nullable = properties.contains(where: \.requiredNullable)
      var decodeDoc = [
        nullable
          ? "/// Decodes the value; a required property must be present, even if null."
          : "/// Decodes the value."
      ]
      var encodeDoc = [
        nullable
          ? "/// Encodes the value, `null` for a required property that is `nil`."
          : "/// Encodes the value."
      ]
      if additional != nil {
        decodeDoc.append("/// The keys the schema does not list go to `additionalProperties`.")
        encodeDoc.append("/// Its `additionalProperties` are encoded beside its properties.")
      }
      decode.insert(contentsOf: decodeDoc, at: 0)
      encode.insert(contentsOf: encodeDoc, at: 0)
    }
    for property in properties {
      let name = SwiftNames.escaped(property.name)
      let key = "forKey: .\(name)"
      let type = property.type.code
      let (decoded, encoded): (String, String)
      let coder = property.type.codingWrapper ?? ""
      switch (!coder.isEmpty, property.requiredNullable, property.optional) {
      case (true, true, _):
        (decoded, encoded) = (
          "self.\(name) = try container.decode(\(coder)<\(type)>?.self, \(key))?.wrappedValue",
          "container.encode(self.\(name).map(\(coder).init(wrappedValue:)), \(key))"
        )
      case (true, false, _):
        // The wrapper's own coding, and the overloads that leave out an optional one.
        let wrapper = "\(coder)<\(type)\(property.optional ? "?" : "")>"
        (decoded, encoded) = (
          "self._\(property.name) = try container.decode(\(wrapper).self, \(key))",
          "container.encode(self._\(property.name), \(key))"
        )
      case (false, true, _):
        (decoded, encoded) = (
          "self.\(name) = try container.decode(\(type)?.self, \(key))",
          "container.encode(self.\(name), \(key))"
        )
      case (false, false, true):
        (decoded, encoded) = (
          "self.\(name) = try container.decodeIfPresent(\(type).self, \(key))",
          "container.encodeIfPresent(self.\(name), \(key))"
        )
      case (false, false, false):
        (decoded, encoded) = (
          "self.\(name) = try container.decode(\(type).self, \(key))",
          "container.encode(self.\(name), \(key))"
        )
      }
      decode.append("  " + decoded)
      encode.append("  try \(encoded)")
    }
    if let additional {
      decode += [
        "  let others = try decoder.container(keyedBy: AdditionalKey.self)",
        "  var additionalProperties: [String: \(additional.code)] = [:]",
        "  for key in others.allKeys where CodingKeys(stringValue: key.stringValue) == nil {",
      ]
      let value = "try others.decode(\(additional.code).self, forKey: key)"
      let assignment = "    additionalProperties[key.stringValue] = "
      decode +=
        assignment.count + value.count + 2 <= Self.lineLength
        ? [assignment + value]
        : [assignment + "try others.decode(", "      \(additional.code).self, forKey: key)"]
      decode += [
        "  }",
        "  self.additionalProperties = additionalProperties",
      ]
      encode += [
        "  var others = encoder.container(keyedBy: AdditionalKey.self)",
        "  for (key, value) in additionalProperties where CodingKeys(stringValue: key) == nil {",
        "    try others.encode(value, forKey: AdditionalKey(stringValue: key))",
        "  }",
      ]
    }
    return decode + ["}", ""] + encode + ["}"] + additionalKeyLines(additional)
  }

  /// The property that keeps the keys an object schema does not list, when its
  /// `additionalProperties` is kept.
  func additionalPropertyLines(_ additional: TypeRef?) -> [String] {
    guard let additional else { return [] }
    return [
      "/// The properties besides those the schema lists, by key (`additionalProperties`).",
      "\(access)var additionalProperties: [String: \(additional.code)] = [:]",
    ]
  }

  /// The coding key of the additional properties: any key.
  private func additionalKeyLines(_ additional: TypeRef?) -> [String] {
    guard additional != nil else { return [] }
    return [
      "",
      "/// A key of ``additionalProperties``.",
      "\(access)struct AdditionalKey: CodingKey {",
      "  /// The key's text.",
      "  \(access)var stringValue: String",
      "  /// None: a JSON object's keys are text.",
      "  \(access)var intValue: Int? { nil }",
      "",
      "  /// The key `stringValue`.",
      "  \(access)init(stringValue: String) {",
      "    self.stringValue = stringValue",
      "  }",
      "",
      "  /// None: a JSON object's keys are text.",
      "  \(access)init?(intValue: Int) {",
      "    nil",
      "  }",
      "}",
    ]
  }
}
