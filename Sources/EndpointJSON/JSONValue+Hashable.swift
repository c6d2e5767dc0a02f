extension JSONValue: Hashable {
  /// Whether two values are the same JSON; numbers compare by value, so `.int(1) == .double(1)`.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let left), .bool(let right)): left == right
    case (.int(let left), .int(let right)): left == right
    case (.double(let left), .double(let right)): left == right
    case (.int(let left), .double(let right)): Int(exactly: right) == left
    case (.double(let left), .int(let right)): Int(exactly: left) == right
    case (.string(let left), .string(let right)): left == right
    case (.array(let left), .array(let right)): left == right
    case (.object(let left), .object(let right)): left == right
    default: false
    }
  }

  /// Hashes the value so that equal numbers hash alike whichever case holds them.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null:
      hasher.combine(0)
    case .bool(let value):
      hasher.combine(1)
      hasher.combine(value)
    case .int(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .double(let value):
      hasher.combine(2)
      if let integer = Int(exactly: value) {
        hasher.combine(integer)
      } else {
        hasher.combine(value)
      }
    case .string(let value):
      hasher.combine(3)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(4)
      hasher.combine(value)
    case .object(let value):
      hasher.combine(5)
      hasher.combine(value)
    }
  }
}
