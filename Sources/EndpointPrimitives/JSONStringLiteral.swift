/// A string written as a JSON string literal (RFC 8259, section 7): the one writer that
/// `JSONValue`'s description and the fixture files of `ReplayClient` share.
package enum JSONStringLiteral {
  /// `text` in double quotes, escaped as ``append(_:to:)`` escapes it.
  package static func quoted(_ text: String) -> String {
    var output = ""
    append(text, to: &output)
    return output
  }

  /// Appends `text` to `output` in double quotes: `"` and `\` escaped, the control characters
  /// U+0000 to U+001F written as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`, and U+2028 and
  /// U+2029 as `\u2028` and `\u2029` (valid JSON either way, but line ends to JavaScript and to
  /// some editors). Every other character is written as it is.
  package static func append(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case _ where scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}":
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  /// JSON string escapes (`\n`, `\"`, `\u00e9`, surrogate pairs) decoded into UTF-8; bytes
  /// outside escapes are kept.
  package static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    guard bytes.contains(UInt8(ascii: "\\")) else { return Array(bytes) }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    var pendingHigh: UInt32?
    while index < bytes.endIndex {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < bytes.endIndex else {
        output.append(byte)
        index += 1
        continue
      }
      let escape = bytes[index + 1]
      if escape == UInt8(ascii: "u"), index + 6 <= bytes.endIndex,
        let code = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16)
      {
        index += 6
        if (0xD800...0xDBFF).contains(code) {
          pendingHigh = code
          continue
        }
        var scalarValue = code
        if (0xDC00...0xDFFF).contains(code), let high = pendingHigh {
          scalarValue = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
        }
        pendingHigh = nil
        if let scalar = Unicode.Scalar(scalarValue) { output += Array(String(scalar).utf8) }
        continue
      }
      pendingHigh = nil
      switch escape {
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      default: output.append(escape)
      }
      index += 2
    }
    return output
  }
}
