extension JSONValue: Codable {
  /// Decodes any JSON value.
  ///
  /// A number whose value is whole and fits an `Int` becomes ``int(_:)`` (the decoder does not
  /// say how the number was written, so `1.0` gives `.int(1)`, equal to `.double(1.0)`); any
  /// other number becomes ``double(_:)``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode([String: JSONValue].self) {
      self = .object(value)
    } else {
      // Decoding an array last lets its error name the element that failed.
      self = .array(try container.decode([JSONValue].self))
    }
  }

  /// Encodes the value; objects go through as dictionaries, so key strategies leave their keys
  /// as they are.
  ///
  /// - Throws: `EncodingError.invalidValue` for a ``double(_:)`` that is not finite, which JSON
  ///   cannot hold.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
