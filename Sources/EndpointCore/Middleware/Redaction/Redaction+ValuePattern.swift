extension Redaction {
  /// A value that is hidden wherever it appears in a body or a text, whatever field holds it:
  /// the standard JSON Web Token and `Bearer`/`Basic` credential patterns, and the values and
  /// prefixes users add with ``Redaction/adding(secretValues:secretPrefixes:)``. EndpointTesting
  /// searches fixtures with the same patterns.
  struct ValuePattern: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
      case exactly(String)
      case prefixed(String)
      case jsonWebToken
      case authorizationCredential
    }

    let kind: Kind

    /// This exact text; an empty text matches nothing.
    static func exactly(_ value: String) -> ValuePattern {
      ValuePattern(kind: .exactly(value))
    }

    /// `prefix` and the token characters (letters, digits, `-._~+/=`) that follow it.
    static func prefixed(_ prefix: String) -> ValuePattern {
      ValuePattern(kind: .prefixed(prefix))
    }

    /// A JSON Web Token: three base64url parts joined by dots, the first starting with `eyJ`.
    static let jsonWebToken = ValuePattern(kind: .jsonWebToken)

    /// The credential after `Bearer ` or `Basic ` (any case), the scheme itself kept; a plain
    /// word such as `Basic usage` is not a credential.
    static let authorizationCredential = ValuePattern(kind: .authorizationCredential)

    /// The byte ranges of `bytes` this pattern hides.
    func ranges(in bytes: [UInt8]) -> [Range<Int>] {
      switch kind {
      case .exactly(let value):
        return Self.occurrences(of: Array(value.utf8), in: bytes).map { $0..<$0 + value.utf8.count }
      case .prefixed(let prefix):
        let needle = Array(prefix.utf8)
        return Self.occurrences(of: needle, in: bytes).compactMap { start in
          let end = Self.tokenEnd(bytes, from: start + needle.count)
          return end > start + needle.count ? start..<end : nil
        }
      case .jsonWebToken:
        return Self.webTokens(in: bytes)
      case .authorizationCredential:
        return Self.credentials(in: bytes)
      }
    }

    static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
      guard !needle.isEmpty, needle.count <= bytes.count else { return [] }
      var found: [Int] = []
      var index = 0
      while index <= bytes.count - needle.count {
        if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) {
          found.append(index)
          index += needle.count
        } else {
          index += 1
        }
      }
      return found
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"),
        UInt8(ascii: "="):
        true
      default:
        false
      }
    }

    static func tokenEnd(_ bytes: [UInt8], from start: Int) -> Int {
      var end = start
      while end < bytes.count, isTokenByte(bytes[end]) { end += 1 }
      return end
    }

    private static func isBase64URLByte(_ byte: UInt8) -> Bool {
      isTokenByte(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "~")
        && byte != UInt8(ascii: "+") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "=")
    }

    private static func webTokens(in bytes: [UInt8]) -> [Range<Int>] {
      var found: [Range<Int>] = []
      for start in occurrences(of: Array("eyJ".utf8), in: bytes) {
        if let last = found.last, last.contains(start) { continue }
        if start > 0, isBase64URLByte(bytes[start - 1]) { continue }
        var index = start
        var parts = 0
        var partLength = 0
        while index < bytes.count {
          if isBase64URLByte(bytes[index]) {
            partLength += 1
          } else if bytes[index] == UInt8(ascii: "."), partLength > 0, parts < 2 {
            parts += 1
            partLength = 0
          } else {
            break
          }
          index += 1
        }
        if parts == 2, index - start >= 16 { found.append(start..<index) }
      }
      return found
    }

    /// Whether a word after `Bearer` or `Basic` is a credential rather than prose ("Basic
    /// usage"): at least 8 characters, with a digit, both cases or punctuation.
    private static func looksRandom(_ word: ArraySlice<UInt8>) -> Bool {
      guard word.count >= 8 else { return false }
      let digits = word.contains { (0x30...0x39).contains($0) }
      let upper = word.contains { (0x41...0x5A).contains($0) }
      let lower = word.contains { (0x61...0x7A).contains($0) }
      let punctuation = word.contains {
        !(0x30...0x39).contains($0) && !(0x41...0x5A).contains($0)
          && !(0x61...0x7A).contains($0)
      }
      return digits || (upper && lower) || punctuation
    }

    private static func credentials(in bytes: [UInt8]) -> [Range<Int>] {
      var found: [Range<Int>] = []
      let lowered = bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
      for scheme in ["bearer ", "basic "] {
        for start in occurrences(of: Array(scheme.utf8), in: lowered) {
          if start > 0, isBase64URLByte(lowered[start - 1]) { continue }
          var valueStart = start + scheme.utf8.count
          while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
          let end = tokenEnd(bytes, from: valueStart)
          if looksRandom(bytes[valueStart..<end]) { found.append(valueStart..<end) }
        }
      }
      return found
    }
  }
}
