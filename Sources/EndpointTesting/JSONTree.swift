import EndpointPrimitives
import Foundation

/// A parsed JSON document that keeps numbers as written and object keys in order, so fixtures
/// can be read and written back without changing a byte of meaning.
indirect enum JSONTree: Sendable, Equatable {
  case null
  case bool(Bool)
  /// The number's text exactly as it appeared.
  case number(String)
  case string(String)
  case array([JSONTree])
  case object([(String, JSONTree)])

  static func == (lhs: JSONTree, rhs: JSONTree) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b || numbersEqual(a, b)
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): objectsEqual(a, b)
    default: false
    }
  }

  /// Objects are equal when they have the same keys with equal values, in any order.
  private static func objectsEqual(_ a: [(String, JSONTree)], _ b: [(String, JSONTree)]) -> Bool {
    guard a.count == b.count else { return false }
    let right = Dictionary(b, uniquingKeysWith: { first, _ in first })
    return a.allSatisfy { key, value in right[key] == value }
  }

  private static func numbersEqual(_ a: String, _ b: String) -> Bool {
    if let x = Decimal(string: a), let y = Decimal(string: b) { return x == y }
    return false
  }

  subscript(key: String) -> JSONTree? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var intValue: Int? {
    if case .number(let text) = self {
      return Int(text) ?? Double(text).flatMap { Int(exactly: $0) }
    }
    return nil
  }

  var arrayValue: [JSONTree]? {
    if case .array(let value) = self { return value }
    return nil
  }
}

// MARK: - Parsing

extension JSONTree {
  /// Parses a complete JSON text (RFC 8259); `nil` when it is not valid JSON.
  init?(parsing data: Data) {
    var parser = JSONTreeParser(bytes: Array(data))
    guard let tree = parser.parseDocument() else { return nil }
    self = tree
  }

  init?(parsing text: String) {
    self.init(parsing: Data(text.utf8))
  }
}

private struct JSONTreeParser {
  let bytes: [UInt8]
  var index = 0
  var depth = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func parseDocument() -> JSONTree? {
    // A UTF-8 byte order mark is tolerated, as most parsers do.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    guard let value = parseValue() else { return nil }
    skipWhitespace()
    return index == bytes.count ? value : nil
  }

  private mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func parseValue() -> JSONTree? {
    skipWhitespace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"): return parseObject()
    case UInt8(ascii: "["): return parseArray()
    case UInt8(ascii: "\""): return parseString().map(JSONTree.string)
    case UInt8(ascii: "t"): return parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return parseLiteral("null", .null)
    default: return parseNumber()
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: JSONTree) -> JSONTree? {
    let utf8 = Array(word.utf8)
    guard bytes[index...].starts(with: utf8) else { return nil }
    index += utf8.count
    return value
  }

  private mutating func parseObject() -> JSONTree? {
    depth += 1
    defer { depth -= 1 }
    guard depth < 512 else { return nil }
    index += 1
    var members: [(String, JSONTree)] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
        let key = parseString()
      else { return nil }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      guard let value = parseValue() else { return nil }
      members.append((key, value))
      skipWhitespace()
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        return nil
      }
    }
  }

  private mutating func parseArray() -> JSONTree? {
    depth += 1
    defer { depth -= 1 }
    guard depth < 512 else { return nil }
    index += 1
    var items: [JSONTree] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      guard let value = parseValue() else { return nil }
      items.append(value)
      skipWhitespace()
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      } else {
        return nil
      }
    }
  }

  private mutating func parseNumber() -> JSONTree? {
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard consumeDigits() > 0 else { return nil }
    if bytes[start...].starts(with: Array("-0".utf8)) || bytes[start] == UInt8(ascii: "0") {
      // A leading zero may not be followed by more digits.
      let zeroIndex = bytes[start] == UInt8(ascii: "-") ? start + 1 : start
      if bytes[zeroIndex] == UInt8(ascii: "0"), index - zeroIndex > 1 { return nil }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard consumeDigits() > 0 else { return nil }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard consumeDigits() > 0 else { return nil }
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private mutating func consumeDigits() -> Int {
    let start = index
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
      index += 1
    }
    return index - start
  }

  private mutating func parseString() -> String? {
    index += 1
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush() -> Bool {
      guard !run.isEmpty else { return true }
      guard let text = String(validating: run, as: UTF8.self) else { return false }
      scalars.append(contentsOf: text.unicodeScalars)
      run.removeAll(keepingCapacity: true)
      return true
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return flush() ? String(scalars) : nil
      case UInt8(ascii: "\\"):
        guard flush(), index < bytes.count else { return nil }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          guard let scalar = parseUnicodeEscape() else { return nil }
          scalars.append(scalar)
        default: return nil
        }
      case 0x00..<0x20:
        return nil
      default:
        run.append(byte)
      }
    }
    return nil
  }

  private mutating func parseHex4() -> UInt32? {
    guard index + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { return nil }
    index += 4
    return value
  }

  private mutating func parseUnicodeEscape() -> Unicode.Scalar? {
    guard let high = parseHex4() else { return nil }
    if (0xD800..<0xDC00).contains(high) {
      guard bytes[index...].starts(with: Array("\\u".utf8)) else { return nil }
      index += 2
      guard let low = parseHex4(), (0xDC00..<0xE000).contains(low) else { return nil }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }
}

// MARK: - Writing

extension JSONTree {
  /// Pretty-printed text: two-space indent, object keys sorted when `sortKeys` is set, and arrays
  /// of scalars kept on one line when they fit, so fixtures diff line by line.
  func formatted(sortKeys: Bool = true) -> String {
    var output = ""
    write(to: &output, indent: 0, sortKeys: sortKeys)
    return output
  }

  /// Compact text with members in their original order.
  var compact: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .number(let text): return text
    case .string(let text): return JSONStringLiteral.quoted(text)
    case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
    case .object(let members):
      return "{"
        + members.map { JSONStringLiteral.quoted($0.0) + ":" + $0.1.compact }.joined(separator: ",")
        + "}"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }

  private func write(to output: inout String, indent: Int, sortKeys: Bool) {
    let padding = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch self {
    case .array(let items):
      if items.isEmpty {
        output += "[]"
        return
      }
      if items.allSatisfy(\.isScalar) {
        let line = "[" + items.map(\.compact).joined(separator: ", ") + "]"
        if line.count + indent * 2 <= 80 {
          output += line
          return
        }
      }
      output += "[\n"
      for (position, item) in items.enumerated() {
        output += padding
        item.write(to: &output, indent: indent + 1, sortKeys: sortKeys)
        output += position == items.count - 1 ? "\n" : ",\n"
      }
      output += closing + "]"
    case .object(let members):
      if members.isEmpty {
        output += "{}"
        return
      }
      let ordered = sortKeys ? members.sorted { $0.0 < $1.0 } : members
      output += "{\n"
      for (position, member) in ordered.enumerated() {
        output += padding + JSONStringLiteral.quoted(member.0) + ": "
        member.1.write(to: &output, indent: indent + 1, sortKeys: sortKeys)
        output += position == ordered.count - 1 ? "\n" : ",\n"
      }
      output += closing + "}"
    default:
      output += compact
    }
  }
}
