import EndpointCore

/// Header field name comparisons that ignore ASCII case without building lowercased strings:
/// the transports run them for every field of every request and response.
///
/// Field names are RFC 9110 tokens (ASCII); a name with other characters is compared byte by
/// byte and never matches a token.
package enum FieldName {
  /// Whether `name` is `lowercased` ignoring ASCII case; `lowercased` must be lowercase.
  package static func equals(_ name: String, _ lowercased: StaticString) -> Bool {
    let count = lowercased.utf8CodeUnitCount
    guard name.utf8.count == count else { return false }
    return lowercased.withUTF8Buffer { expected in
      var index = 0
      for byte in name.utf8 {
        guard lower(byte) == expected[index] else { return false }
        index += 1
      }
      return true
    }
  }

  /// Whether `lhs` and `rhs` are the same name, ignoring ASCII case.
  package static func same(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.elementsEqual(rhs.utf8) { lower($0) == lower($1) }
  }

  /// Whether `lhs` sorts before `rhs` once both are lowercased (ASCII).
  package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
    var left = lhs.utf8.makeIterator()
    var right = rhs.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return false
      case (nil, _): return true
      case (_, nil): return false
      case (let a?, let b?):
        let (x, y) = (lower(a), lower(b))
        if x != y { return x < y }
      }
    }
  }

  /// Whether `name` describes the connection or the message framing. A transport sets those
  /// from the real body and connection; a user's value would corrupt the connection (leftover
  /// bytes read as the next request), so it is never sent.
  package static func isFraming(_ name: String) -> Bool {
    equals(name, "content-length") || equals(name, "transfer-encoding")
      || equals(name, "host") || equals(name, "connection")
  }

  @inline(__always)
  private static func lower(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
  }
}
