/// Date-times as one shared property wrapper, `RFC3339`, written once per output in a support
/// file, so that models keep their synthesised `Codable`.
extension Generation {
  /// The support file's path in the output.
  static let dateSupportPath = "Support/RFC3339.swift"

  /// The names the support file declares, which no model may take.
  static let dateSupportNames: Set<String> = ["RFC3339", "RFC3339Value"]

  /// The wrapper of date-times.
  static let rfc3339Wrapper = Wrapper(
    name: "RFC3339", text: "RFC 3339 text", noun: "date-time", decodeLabel: "rfc3339From",
    encodeName: "encodeRFC3339", wrapped: "The date, or the optional, array or dictionary of dates",
    kind: "a `Date`")

  /// The support file: the wrapper, what it wraps, and the keyed-container overloads that let a
  /// synthesised `Codable` leave out an optional date-time.
  func emitDateSupport() -> String {
    let access = self.access
    let lines =
      Self.foundationImport + [
        "",
        "/// A date-time property read and written as RFC 3339 text (`2024-05-01T12:30:45Z`,",
        "/// `2024-05-01T14:30:45.250+02:00`) whatever the coder's date strategy.",
        "///",
        "/// It writes UTC, with fractional seconds only when the date has them. An optional",
        "/// property is left out when `nil`, and is `nil` when absent or null.",
      ]
      + Self.wrapperLines(Self.rfc3339Wrapper, access: access) + [
        "extension Date: RFC3339Value {",
        "  /// Decodes an RFC 3339 date-time, with or without fractional seconds.",
        "  \(access)init(rfc3339From decoder: any Decoder) throws {",
        "    let container = try decoder.singleValueContainer()",
        "    let text = try container.decode(String.self)",
        "    // RFC 3339 allows a lowercase `t` and `z`.",
        "    guard let date = try? Date(text.uppercased(), strategy: .iso8601) else {",
        "      throw DecodingError.dataCorruptedError(",
        "        in: container, debugDescription: \"Not an RFC 3339 date-time: \\(text)\")",
        "    }",
        "    self = date",
        "  }",
        "",
        "  /// Encodes the date as ``RFC3339/text``.",
        "  \(access)func encodeRFC3339(to encoder: any Encoder) throws {",
        "    var container = encoder.singleValueContainer()",
        "    try container.encode(RFC3339(wrappedValue: self).text)",
        "  }",
        "}",
        "",
        "extension RFC3339 where Value == Date {",
        "  /// The date as it is encoded: RFC 3339 in UTC, fractional seconds only when it has them.",
        "  \(access)var text: String {",
        "    let seconds = wrappedValue.timeIntervalSince1970",
        "    let fractional = seconds.rounded(.down) != seconds",
        "    return wrappedValue.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: fractional))",
        "  }",
        "}",
        "",
      ]
      + Self.wrappedCollectionLines(Self.rfc3339Wrapper, access: access)
    return header + "\n" + lines.joined(separator: "\n") + "\n"
  }

  /// A type with `date-time` strings, its own or its items' or values', as ``TypeRef/dateTime``
  /// and `date` strings as ``TypeRef/calendarDay``; through a `$ref` too, so what names a
  /// date-time schema of `components/schemas` (itself a `Date` typealias) is a date-time, coded
  /// by the wrapper where it is used. `byte` strings are ``TypeRef/base64`` unless `bytes` is
  /// false (a parameter's, which stays base64 text).
  func dated(_ type: TypeRef, _ schema: JSONNode, bytes: Bool = true) -> TypeRef {
    var schema = schema
    for _ in 0..<8 {
      if let parts = schema["allOf"]?.array, parts.count == 1, !Self.isObjectLike(schema) {
        schema = parts[0]
      } else if let (_, variants, _) = Self.composition(of: schema), variants.count == 1,
        !Self.isObjectLike(schema)
      {
        // `oneOf: [X, {type: null}]`, a nullable X.
        schema = variants[0].schema
      } else if let reference = schema["$ref"]?.string,
        let (target, _) = document.resolve(reference)
      {
        schema = target
      } else {
        break
      }
    }
    switch type {
    case .string, .named(_, isStringEnum: false):
      guard Self.types(of: schema) == ["string"] else { return type }
      switch schema["format"]?.string {
      case "date-time": return .dateTime
      case "date": return .calendarDay
      case "byte" where bytes: return .base64
      default: return type
      }
    case .array(let element):
      guard let items = schema["items"] else { return type }
      return .array(dated(element, items, bytes: bytes))
    case .dictionary(let value):
      guard let additional = schema["additionalProperties"] else { return type }
      return .dictionary(dated(value, additional, bytes: bytes))
    default: return type
    }
  }
}

extension TypeRef {
  /// Whether `type` is in this type: it is `type`, or an array or dictionary of them.
  func contains(_ type: TypeRef) -> Bool {
    switch self {
    case .array(let element): element.contains(type)
    case .dictionary(let value): value.contains(type)
    default: self == type
    }
  }

  /// Whether a date-time is in the type: it is one, or an array or dictionary of them.
  var containsDateTime: Bool { contains(.dateTime) }
}

extension ModelDecl {
  /// Whether this type or one nested in it has `type` in its type: in a property, what it
  /// aliases, or a variant.
  func uses(_ type: TypeRef) -> Bool {
    switch shape {
    case .object(let properties):
      if properties.contains(where: { $0.type.contains(type) }) { return true }
    case .alias(let aliased):
      if aliased.contains(type) { return true }
    case .choice(let choice):
      if choice.cases.contains(where: { $0.type.contains(type) }) { return true }
    case .stringEnum:
      break
    }
    return nested.contains { $0.uses(type) }
  }

  /// Whether this type or one nested in it has a date-time property.
  var usesDateTime: Bool { uses(.dateTime) }
}
