extension URLRedaction {
  /// Finds the byte ranges of a URL's text that hold secrets: its user information, the values
  /// of hidden query items, fragment pairs and path parameters, and the same parts of any URL
  /// that a value holds percent-encoded (`?next=https%3A%2F%2Fuser%3Apw%40…`).
  struct Cutter {
    /// How many URLs deep inside the outer one a value is still read as a URL; a value that
    /// would be one more level down is hidden whole, so hostile input costs at most this many
    /// passes over its bytes.
    static let nestingLimit = 3

    let hidingUserInfo: Bool
    let replacement: String
    let hidesQueryItem: (String) -> Bool
    /// The values taken out, decoded.
    var removed: [String] = []

    /// The ranges (indices of `url`'s base) to replace in `url`, the text of a URL `depth`
    /// levels inside the outer one.
    mutating func cuts(in url: ArraySlice<UInt8>, depth: Int) -> [Range<Int>] {
      var cuts: [Range<Int>] = []
      var rest = url
      // scheme://[userinfo@]authority
      if let colon = rest.firstIndex(of: UInt8(ascii: ":")),
        rest[colon...].starts(with: "://".utf8)
      {
        rest = rest[(colon + 3)...]
        let authorityEnd =
          rest.firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
          }
          ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if hidingUserInfo, let at = authority.lastIndex(of: UInt8(ascii: "@")) {
          let userInfo = authority[..<at]
          if !isReplacement(userInfo) {
            if let colon = userInfo.firstIndex(of: UInt8(ascii: ":")) {
              removed.append(PercentEncoding.decode(text(userInfo[(colon + 1)...])))
            }
            removed.append(PercentEncoding.decode(text(userInfo)))
          }
          cuts.append(userInfo.startIndex..<at)
        }
        rest = rest[authorityEnd...]
      }
      // `name=value` pairs after `#` hold secrets too: an OAuth implicit grant's
      // `#access_token=…` in a redirect's `Location`.
      if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
        let fragment = rest[(hash + 1)...]
        if fragment.contains(UInt8(ascii: "=")) {
          cuts += pairCuts(fragment, depth: depth)
        }
        rest = rest[..<hash]
      }
      // Path parameters (`/app;jsessionid=…`, RFC 3986 section 3.3) carry session identifiers.
      let pathEnd = rest.firstIndex(of: UInt8(ascii: "?")) ?? rest.endIndex
      if rest[..<pathEnd].contains(UInt8(ascii: ";")) {
        cuts += pathParameterCuts(rest[..<pathEnd], depth: depth)
      }
      if pathEnd < rest.endIndex {
        cuts += pairCuts(rest[(pathEnd + 1)...], depth: depth)
      }
      return cuts
    }

    /// The cuts in `name=value` pairs joined by `&`: the values of hidden names, and the
    /// secrets of URLs in the other values.
    private mutating func pairCuts(_ pairs: ArraySlice<UInt8>, depth: Int) -> [Range<Int>] {
      var cuts: [Range<Int>] = []
      for item in pairs.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
        guard let equals = item.firstIndex(of: UInt8(ascii: "=")) else { continue }
        let value = item[(equals + 1)...]
        if hidesQueryItem(text(item[..<equals])) {
          if !isReplacement(value) {
            removed.append(Redaction.decodeFormComponent(Substring(text(value))))
          }
          cuts.append(value.startIndex..<value.endIndex)
        } else {
          cuts += valueCuts(value, depth: depth)
        }
      }
      return cuts
    }

    /// The cuts in a path's `;name=value` parameters: the values of hidden names, and the
    /// secrets of URLs in the other values.
    private mutating func pathParameterCuts(_ path: ArraySlice<UInt8>, depth: Int) -> [Range<Int>] {
      var cuts: [Range<Int>] = []
      for segment in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
        for part in segment.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
          .dropFirst()
        {
          guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { continue }
          let value = part[(equals + 1)...]
          if hidesQueryItem(text(part[..<equals])) {
            if !isReplacement(value) {
              removed.append(PercentEncoding.decode(text(value)))
            }
            cuts.append(value.startIndex..<value.endIndex)
          } else {
            cuts += valueCuts(value, depth: depth)
          }
        }
      }
      return cuts
    }

    /// The cuts in a value that is not hidden itself: when, percent-decoded, it is a URL
    /// (`https%3A%2F%2F…`, or `https://…` as it is) the secrets of that URL, or of the URL a
    /// value encoded more than once decodes to; nothing for any other value.
    mutating func valueCuts(_ value: ArraySlice<UInt8>, depth: Int) -> [Range<Int>] {
      // A URL needs a `:`, an encoded one a `%`: most values have neither.
      guard value.contains(UInt8(ascii: ":")) || value.contains(UInt8(ascii: "%")) else {
        return []
      }
      let decoded = DecodedValue(value)
      let isURL = Self.containsSchemeSeparator(decoded.bytes)
      let isEncodedAgain =
        !isURL && decoded.bytes.count < value.count && decoded.bytes.contains(UInt8(ascii: "%"))
      guard isURL || isEncodedAgain else { return [] }
      guard depth < Self.nestingLimit else {
        // One level too deep to read: hidden whole if it may still hold a URL.
        guard isURL || Self.containsEncodedColon(decoded.bytes) else { return [] }
        removed.append(PercentEncoding.decode(text(value)))
        return [value.startIndex..<value.endIndex]
      }
      let inner =
        isURL
        ? cuts(in: decoded.bytes[...], depth: depth + 1)
        : valueCuts(decoded.bytes[...], depth: depth + 1)
      return inner.map { decoded.offsets[$0.lowerBound]..<decoded.offsets[$0.upperBound] }
    }

    /// Whether `value` is the replacement already (as it is, or as the outer text's encoded
    /// replacement reads once decoded).
    private func isReplacement(_ value: ArraySlice<UInt8>) -> Bool {
      let value = text(value)
      return value == replacement || value == HTTPFields.redactedValue
        || PercentEncoding.decode(value) == HTTPFields.redactedValue
    }

    private func text(_ bytes: ArraySlice<UInt8>) -> String {
      String(decoding: bytes, as: UTF8.self)
    }

    private static func containsSchemeSeparator(_ bytes: [UInt8]) -> Bool {
      bytes.indices.dropLast(2).contains { index in
        bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
          && bytes[index + 2] == UInt8(ascii: "/")
      }
    }

    private static func containsEncodedColon(_ bytes: [UInt8]) -> Bool {
      bytes.indices.dropLast(2).contains { index in
        bytes[index] == UInt8(ascii: "%") && bytes[index + 1] == UInt8(ascii: "3")
          && (bytes[index + 2] == UInt8(ascii: "A") || bytes[index + 2] == UInt8(ascii: "a"))
      }
    }
  }

  /// A value with its `%XX` escapes of ASCII bytes decoded (the rest kept as they are, so the
  /// bytes stay UTF-8), and where each decoded byte came from in the value.
  struct DecodedValue {
    /// The decoded bytes.
    var bytes: [UInt8] = []
    /// For each decoded byte, the index in the value where it starts; one more at the end,
    /// the value's end index.
    var offsets: [Int] = []

    init(_ value: ArraySlice<UInt8>) {
      bytes.reserveCapacity(value.count)
      offsets.reserveCapacity(value.count + 1)
      var index = value.startIndex
      while index < value.endIndex {
        offsets.append(index)
        if value[index] == UInt8(ascii: "%"), index + 2 < value.endIndex,
          let high = PercentEncoding.hexValue(value[index + 1]),
          let low = PercentEncoding.hexValue(value[index + 2]),
          high < 8
        {
          bytes.append(high << 4 | low)
          index += 3
        } else {
          bytes.append(value[index])
          index += 1
        }
      }
      offsets.append(value.endIndex)
    }
  }
}
