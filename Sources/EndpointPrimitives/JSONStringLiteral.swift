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
}
