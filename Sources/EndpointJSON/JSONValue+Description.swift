import EndpointPrimitives

extension JSONValue: CustomStringConvertible {
  /// The value as compact JSON text with object keys sorted, such as `{"a":1,"b":[true,null]}`.
  ///
  /// A number that JSON cannot hold (infinity, NaN) is written as Swift prints it.
  public var description: String {
    var text = ""
    write(to: &text)
    return text
  }

  private func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .int(let value): text += String(value)
    case .double(let value): text += String(value)
    case .string(let value): JSONStringLiteral.append(value, to: &text)
    case .array(let values):
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += "," }
        value.write(to: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { text += "," }
        JSONStringLiteral.append(key, to: &text)
        text += ":"
        members[key, default: .null].write(to: &text)
      }
      text += "}"
    }
  }
}
