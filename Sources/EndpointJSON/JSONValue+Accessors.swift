extension JSONValue {
  /// The member named `key` of an object; `nil` when there is none or this is not an object.
  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The element at `index` of an array; `nil` when the index is out of range or this is not an
  /// array.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let array) = self, array.indices.contains(index) else { return nil }
    return array[index]
  }

  /// The string, for ``string(_:)``.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number as an `Int`, for ``int(_:)`` and for a ``double(_:)`` with no fractional part
  /// that fits an `Int`.
  public var intValue: Int? {
    switch self {
    case .int(let value): value
    case .double(let value): Int(exactly: value)
    default: nil
    }
  }

  /// The number as a `Double`, for ``double(_:)`` and ``int(_:)`` (large integers are rounded to
  /// the nearest `Double`).
  public var doubleValue: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// The Boolean, for ``bool(_:)``.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, for ``array(_:)``.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, for ``object(_:)``.
  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is ``null``.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}
