/// RFC 9110 syntax checks shared by methods and field names.
package enum HTTPToken {
  /// Whether `string` is a non-empty RFC 9110 `token` (`tchar` characters only).
  package static func isValid(_ string: String) -> Bool {
    !string.utf8.isEmpty && string.utf8.allSatisfy(isTokenByte)
  }

  // Inlinable: the curl client checks every byte of a response's field names with it.
  @inlinable
  package static func isTokenByte(_ byte: UInt8) -> Bool {
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
  package static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8
    let right = rhs.utf8
    guard left.count == right.count else { return false }
    for (a, b) in zip(left, right) where a != b && lowercased(a) != lowercased(b) {
      return false
    }
    return true
  }

  package static func lowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }

  /// The first forbidden character in a field value, if any: every ASCII control character
  /// but HTAB (RFC 9110, section 5.5: CR, LF and NUL end or corrupt the field; the others are
  /// refused by servers and proxies in ways that differ).
  package static func forbiddenValueCharacter(in value: String) -> String? {
    for byte in value.utf8 {
      switch byte {
      case 0x0D: return "CR"
      case 0x0A: return "LF"
      case 0x00: return "NUL"
      case 0x7F: return "DEL"
      case 0x09: continue
      case 0x01...0x1F: return "the control character 0x\(hex(byte))"
      default: continue
      }
    }
    return nil
  }

  /// `byte` as two upper-case hexadecimal digits.
  package static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
  }

  /// `text` cut to `limit` characters for an error message, with the size of the whole when
  /// it was cut.
  package static func cut(_ text: String, limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    let head = String(text.prefix(limit))
    guard head.utf8.count < text.utf8.count else { return text }
    return head + "… (\(text.utf8.count) bytes in all)"
  }

  /// `text` for an error message: quoted and escaped like `String(reflecting:)`, cut to
  /// `limit` characters (with the count of the rest), so a hostile input of megabytes gives a
  /// message of a few hundred characters.
  package static func quotedForMessage(_ text: String, limit: Int = 80) -> String {
    guard text.count > limit else { return String(reflecting: text) }
    let head = String(text.prefix(limit))
    return String(reflecting: head) + "… (\(text.utf8.count) bytes in all)"
  }
}
