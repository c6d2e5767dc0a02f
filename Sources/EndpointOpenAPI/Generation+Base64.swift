/// Base64 text (`format: byte`) as `Data`, through one shared property wrapper, `Base64`, written
/// once per output in a support file like the date-times' `RFC3339`.
extension Generation {
  /// The support file's path in the output.
  static let base64SupportPath = "Support/Base64.swift"

  /// The names the support file declares, which no model may take.
  static let base64SupportNames: Set<String> = ["Base64", "Base64Value"]

  /// The wrapper of base64 bytes.
  static let base64Wrapper = Wrapper(
    name: "Base64", text: "base64 text", noun: "base64", decodeLabel: "base64From",
    encodeName: "encodeBase64", wrapped: "The bytes, or the optional, array or dictionary of them",
    kind: "`Data`")

  /// The support file: the wrapper, what it wraps, and the keyed-container overloads that let a
  /// synthesised `Codable` leave out an optional value.
  func emitBase64Support() -> String {
    let access = self.access
    let lines =
      Self.foundationImport + [
        "",
        "/// Bytes read and written as base64 text (`format: byte`, RFC 4648 with padding)",
        "/// whatever the coder's data strategy.",
        "///",
        "/// Text that is not base64 is a decoding error. An optional property is left out when",
        "/// `nil`, and is `nil` when absent or null.",
      ]
      + Self.wrapperLines(Self.base64Wrapper, access: access) + [
        "extension Data: Base64Value {",
        "  /// Decodes base64 text, with its padding.",
        "  \(access)init(base64From decoder: any Decoder) throws {",
        "    let container = try decoder.singleValueContainer()",
        "    let text = try container.decode(String.self)",
        "    guard let data = Data(base64Encoded: text) else {",
        "      throw DecodingError.dataCorruptedError(",
        "        in: container, debugDescription: \"Not base64 text: \\(text.prefix(40))\")",
        "    }",
        "    self = data",
        "  }",
        "",
        "  /// Encodes the bytes as base64 text, with padding.",
        "  \(access)func encodeBase64(to encoder: any Encoder) throws {",
        "    var container = encoder.singleValueContainer()",
        "    try container.encode(base64EncodedString())",
        "  }",
        "}",
        "",
      ]
      + Self.wrappedCollectionLines(Self.base64Wrapper, access: access)
    return header + "\n" + lines.joined(separator: "\n") + "\n"
  }

  /// A support file's property wrapper (`RFC3339`, `Base64`): how its declarations are named
  /// and documented.
  struct Wrapper {
    /// The wrapper's name; its protocol's is this with `Value`.
    var name: String
    /// What it reads and writes, as the docs say it: `RFC 3339 text`.
    var text: String
    /// What a property of it is, as the docs say it: `date-time`.
    var noun: String
    /// The label of the protocol's decoding initialiser: `rfc3339From`.
    var decodeLabel: String
    /// The name of the protocol's encoding method: `encodeRFC3339`.
    var encodeName: String
    /// The doc of `wrappedValue`, without its period.
    var wrapped: String
    /// What the protocol's plain conformer is, as the docs say it: a `Date`.
    var kind: String
  }

  /// The wrapper struct and its protocol.
  static func wrapperLines(_ wrapper: Wrapper, access: String) -> [String] {
    let (name, text) = (wrapper.name, wrapper.text)
    return [
      "@propertyWrapper",
      "\(access)struct \(name)<Value: \(name)Value>: Codable, Sendable, Hashable {",
      "  /// \(wrapper.wrapped).",
      "  \(access)var wrappedValue: Value",
      "",
      "  /// Wraps a value.",
      "  \(access)init(wrappedValue: Value) {",
      "    self.wrappedValue = wrappedValue",
      "  }",
      "",
      "  /// Decodes \(text).",
      "  \(access)init(from decoder: any Decoder) throws {",
      "    wrappedValue = try Value(\(wrapper.decodeLabel): decoder)",
      "  }",
      "",
      "  /// Encodes \(text).",
      "  \(access)func encode(to encoder: any Encoder) throws {",
      "    try wrappedValue.\(wrapper.encodeName)(to: encoder)",
      "  }",
      "}",
      "",
      "/// What ``\(name)`` wraps: \(wrapper.kind), or an optional, array or dictionary of them.",
      "\(access)protocol \(name)Value: Sendable, Hashable {",
      "  /// Decodes the value from \(text).",
      "  init(\(wrapper.decodeLabel) decoder: any Decoder) throws",
      "  /// Encodes the value as \(text).",
      "  func \(wrapper.encodeName)(to encoder: any Encoder) throws",
      "}",
      "",
    ]
  }

  /// The conformances of a support file's wrapper for optionals, arrays and dictionaries, and
  /// the keyed-container overloads that leave out an optional property.
  static func wrappedCollectionLines(_ spec: Wrapper, access: String) -> [String] {
    let (wrapper, text, noun) = (spec.name, spec.text, spec.noun)
    let (decodeLabel, encodeName) = (spec.decodeLabel, spec.encodeName)
    let value = wrapper + "Value"
    return [
      "extension Optional: \(value) where Wrapped: \(value) {",
      "  /// Decodes `nil` from null, else the wrapped value.",
      "  \(access)init(\(decodeLabel) decoder: any Decoder) throws {",
      "    self = try decoder.singleValueContainer().decodeNil() ? nil : Wrapped(\(decodeLabel): decoder)",
      "  }",
      "",
      "  /// Encodes null for `nil`, else the wrapped value.",
      "  \(access)func \(encodeName)(to encoder: any Encoder) throws {",
      "    guard let self else {",
      "      var container = encoder.singleValueContainer()",
      "      return try container.encodeNil()",
      "    }",
      "    try self.\(encodeName)(to: encoder)",
      "  }",
      "}",
      "",
      "extension Array: \(value) where Element: \(value) {",
      "  /// Decodes each item from \(text).",
      "  \(access)init(\(decodeLabel) decoder: any Decoder) throws {",
      "    self = try [\(wrapper)<Element>](from: decoder).map(\\.wrappedValue)",
      "  }",
      "",
      "  /// Encodes each item as \(text).",
      "  \(access)func \(encodeName)(to encoder: any Encoder) throws {",
      "    try map(\(wrapper).init(wrappedValue:)).encode(to: encoder)",
      "  }",
      "}",
      "",
      "extension Dictionary: \(value) where Key == String, Value: \(value) {",
      "  /// Decodes each value from \(text).",
      "  \(access)init(\(decodeLabel) decoder: any Decoder) throws {",
      "    self = try [String: \(wrapper)<Value>](from: decoder).mapValues(\\.wrappedValue)",
      "  }",
      "",
      "  /// Encodes each value as \(text).",
      "  \(access)func \(encodeName)(to encoder: any Encoder) throws {",
      "    try mapValues(\(wrapper).init(wrappedValue:)).encode(to: encoder)",
      "  }",
      "}",
      "",
      "extension KeyedDecodingContainer {",
      "  /// An optional \(noun) property: `nil` when absent or null.",
      "  \(access)func decode<Wrapped>(",
      "    _ type: \(wrapper)<Wrapped?>.Type, forKey key: Key",
      "  ) throws -> \(wrapper)<Wrapped?> {",
      "    \(wrapper)(wrappedValue: try decodeIfPresent(\(wrapper)<Wrapped>.self, forKey: key)?.wrappedValue)",
      "  }",
      "}",
      "",
      "extension KeyedEncodingContainer {",
      "  /// An optional \(noun) property: left out when `nil`.",
      "  \(access)mutating func encode<Wrapped>(_ value: \(wrapper)<Wrapped?>, forKey key: Key) throws {",
      "    try encodeIfPresent(value.wrappedValue.map(\(wrapper).init(wrappedValue:)), forKey: key)",
      "  }",
      "}",
    ]
  }
}

extension TypeRef {
  /// The support file's wrapper that codes this type, whatever the coder's strategies:
  /// `RFC3339` for date-times, `Base64` for base64 bytes (or arrays or dictionaries of them).
  var codingWrapper: String? {
    if contains(.dateTime) { return "RFC3339" }
    if contains(.base64) { return "Base64" }
    return nil
  }
}
