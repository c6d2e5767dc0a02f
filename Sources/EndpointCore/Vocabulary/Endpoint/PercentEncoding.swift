/// Percent-encoding as RFC 3986 defines it, on UTF-8 bytes.
enum PercentEncoding {
  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  /// Unreserved characters only: everything else, `/`, `+`, `&`, `=`, `#`, `?` and space
  /// included, becomes `%XX`. Used for query names and values, form fields and path segments.
  static func encodeComponent(_ string: String) -> String {
    encode(string) { isUnreserved($0) }
  }

  /// A path typed by hand: keeps `/`, sub-delimiters, `:`, `@` and valid `%XX` escapes, and
  /// encodes the rest (spaces, non-ASCII).
  /// One path segment from a value: RFC 3986's unreserved characters and `:` `@` `,` `;` `=`
  /// (which a segment may hold as they are, and `name:action` paths need) stay; `/`, `?`, `#`,
  /// `%` and everything else are encoded, so the value stays one segment.
  static func encodeSegment(_ string: String) -> String {
    encode(string) { byte in
      isUnreserved(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
        || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "=")
    }
  }

  static func encodePath(_ string: String) -> String {
    encode(string, keepingEscapes: true) { byte in
      isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: "/")
        || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }
  }

  /// A query typed by hand: like a path, plus `?`.
  static func encodeQuery(_ string: String) -> String {
    encode(string, keepingEscapes: true) { byte in
      isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: "/")
        || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "?")
    }
  }

  static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default:
      false
    }
  }

  private static func isSubDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
      UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
      true
    default:
      false
    }
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
      UInt8(ascii: "A")...UInt8(ascii: "F"):
      true
    default:
      false
    }
  }

  private static func encode(
    _ string: String,
    keepingEscapes: Bool = false,
    allowed: (UInt8) -> Bool
  ) -> String {
    // Most names, values and paths need no encoding: answer without allocating.
    if string.utf8.allSatisfy(allowed) { return string }
    var string = string
    return string.withUTF8 { utf8 in
      var output = [UInt8]()
      output.reserveCapacity(utf8.count * 3)
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        if allowed(byte) {
          output.append(byte)
        } else if keepingEscapes, byte == UInt8(ascii: "%"), index + 2 < utf8.count,
          isHexDigit(utf8[index + 1]), isHexDigit(utf8[index + 2])
        {
          output.append(contentsOf: utf8[index...index + 2])
          index += 2
        } else {
          output.append(UInt8(ascii: "%"))
          output.append(hexDigits[Int(byte >> 4)])
          output.append(hexDigits[Int(byte & 0x0F)])
        }
        index += 1
      }
      return String(decoding: output, as: UTF8.self)
    }
  }
}

extension PercentEncoding {
  /// The text with every valid `%XX` escape decoded; invalid escapes and bytes are kept as they
  /// are, and bytes that are not UTF-8 become U+FFFD. For matching names, never for URLs.
  static func decode(_ string: String) -> String {
    guard string.utf8.contains(UInt8(ascii: "%")) else { return string }
    let utf8 = Array(string.utf8)
    var output = [UInt8]()
    output.reserveCapacity(utf8.count)
    var index = 0
    while index < utf8.count {
      if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
        let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(utf8[index])
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The value of one hexadecimal digit (either case), or `nil` for any other byte.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
