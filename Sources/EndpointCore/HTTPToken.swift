/// RFC 9110 syntax checks shared by methods and field names.
enum HTTPToken {
  /// Whether `string` is a non-empty RFC 9110 `token` (`tchar` characters only).
  static func isValid(_ string: String) -> Bool {
    !string.utf8.isEmpty && string.utf8.allSatisfy(isTokenByte)
  }

  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }

  /// Whether two field names are equal, ignoring ASCII case.
  static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8
    let right = rhs.utf8
    guard left.count == right.count else { return false }
    for (a, b) in zip(left, right) where a != b && lowercased(a) != lowercased(b) {
      return false
    }
    return true
  }

  static func lowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }

  /// The first forbidden character in a field value (CR, LF or NUL), if any.
  static func forbiddenValueCharacter(in value: String) -> String? {
    for byte in value.utf8 {
      switch byte {
      case 0x0D: return "CR"
      case 0x0A: return "LF"
      case 0x00: return "NUL"
      default: continue
      }
    }
    return nil
  }
}
