/// The YAML 1.2 core schema's resolution of plain scalars (YAML 1.2.2, section 10.3.2): the
/// tags a plain, untagged scalar gets from its text alone.
enum YAMLScalar {
  /// `text` as null, a boolean, a number or, failing all of them, a string.
  static func resolve(_ text: String) -> JSONNode {
    switch text {
    case "", "~", "null", "Null", "NULL": return .null
    case "true", "True", "TRUE": return .bool(true)
    case "false", "False", "FALSE": return .bool(false)
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
    case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
    case ".nan", ".NaN", ".NAN": return .number(.nan)
    default: break
    }
    let bytes = Array(text.utf8)
    if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
      let digits = String(decoding: bytes[2...], as: UTF8.self)
      switch bytes[1] {
      case UInt8(ascii: "o"):
        if let value = integer(digits, radix: 8) { return .number(value) }
      case UInt8(ascii: "x"):
        if let value = integer(digits, radix: 16) { return .number(value) }
      default: break
      }
    }
    if isDecimal(bytes), let value = Double(text) { return .number(value) }
    return .string(text)
  }

  /// Digits of `radix` only, read into a double (exact up to 2^53, as JSON numbers are).
  private static func integer(_ digits: String, radix: Int) -> Double? {
    var value = 0.0
    for character in digits {
      guard let digit = character.hexDigitValue, digit < radix else { return nil }
      value = value * Double(radix) + Double(digit)
    }
    return value
  }

  /// Whether `bytes` match the core schema's integers and floats:
  /// `[-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`.
  private static func isDecimal(_ bytes: [UInt8]) -> Bool {
    var index = 0
    func skipDigits() -> Int {
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - start
    }
    func skip(_ characters: String) -> Bool {
      guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    _ = skip("-+")
    if skip(".") {
      guard skipDigits() > 0 else { return false }
    } else {
      guard skipDigits() > 0 else { return false }
      if skip(".") { _ = skipDigits() }
    }
    if skip("eE") {
      _ = skip("-+")
      guard skipDigits() > 0 else { return false }
    }
    return index == bytes.count
  }
}
