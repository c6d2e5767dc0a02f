import EndpointPrimitives

/// Replaces the values of secret keys in JSON text, keeping every other byte as it was.
///
/// It reads JSON the way a tokenizer does, without building a tree, so it also works on a body
/// cut short (a log preview): a secret value that runs past the end is replaced all the same.
enum JSONSecretScanner {
  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")

  /// Whether `bytes` start (after white space) like a JSON object or array.
  static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
    for byte in bytes where !isWhitespace(byte) {
      return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
    }
    return false
  }

  /// `bytes` with the value of every member whose key `hidesKey` accepts replaced by
  /// `"<redacted>"`; the string values replaced are added to `removed`. Other string values
  /// holding a URL (`"next": "https://…?access_token=…"`) are passed to `redactURLs`, which
  /// returns them with their secrets hidden.
  static func redact(
    _ bytes: [UInt8],
    hidesKey: (String) -> Bool,
    redactURLs: ((String, inout [String]) -> String)? = nil,
    removed: inout [String]
  ) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    // For each open container: whether it is an object, and whether its next string is a key.
    var isObject: [Bool] = []
    var expectsKey: [Bool] = []
    var secretKeyPending = false
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        isObject.append(byte == UInt8(ascii: "{"))
        expectsKey.append(byte == UInt8(ascii: "{"))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if !expectsKey.isEmpty {
          isObject.removeLast()
          expectsKey.removeLast()
        }
      case UInt8(ascii: ","):
        if let last = expectsKey.indices.last, isObject[last] { expectsKey[last] = true }
      case UInt8(ascii: ":"):
        if let last = expectsKey.indices.last { expectsKey[last] = false }
        if secretKeyPending {
          secretKeyPending = false
          output.append(byte)
          index += 1
          while index < bytes.count, isWhitespace(bytes[index]) {
            output.append(bytes[index])
            index += 1
          }
          guard index < bytes.count else { return output }
          let end = valueEnd(bytes, from: index)
          if bytes[index] == quote {
            removed.append(decodeString(bytes, from: index + 1, to: end))
          } else {
            collectStrings(bytes[index..<end], into: &removed)
          }
          output += Array("\"\(HTTPFields.redactedValue)\"".utf8)
          index = end
          continue
        }
      case quote:
        let end = stringEnd(bytes, from: index + 1)
        if let last = expectsKey.last, last {
          secretKeyPending = hidesKey(decodeString(bytes, from: index + 1, to: end))
        } else if let redactURLs, containsScheme(bytes[index..<end]) {
          let text = decodeString(bytes, from: index + 1, to: end)
          let redacted = redactURLs(text, &removed)
          if redacted != text {
            output += Array(JSONStringLiteral.quoted(redacted).utf8)
            index = end
            continue
          }
        }
        output += bytes[index..<end]
        index = end
        continue
      default:
        break
      }
      output.append(byte)
      index += 1
    }
    return output
  }

  /// Whether `bytes` hold `://` (written `:\/\/` too), the mark of a URL.
  private static func containsScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    while let colon = bytes[index...].firstIndex(of: UInt8(ascii: ":")) {
      let after = bytes[(colon + 1)...].lazy.filter { $0 != UInt8(ascii: "\\") }.prefix(2)
      if after.elementsEqual([UInt8(ascii: "/"), UInt8(ascii: "/")]) { return true }
      index = colon + 1
    }
    return false
  }

  private static func isEscaped(_ bytes: [UInt8], at index: Int) -> Bool {
    var slashes = 0
    var position = index - 1
    while position >= 0, bytes[position] == backslash {
      slashes += 1
      position -= 1
    }
    return slashes % 2 == 1
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// The index after the closing quote of a string whose content starts at `start`, or the
  /// end of the bytes when it is cut short.
  static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start
    while index < bytes.count {
      if bytes[index] == backslash {
        index += 2
      } else if bytes[index] == quote {
        return index + 1
      } else {
        index += 1
      }
    }
    return bytes.count
  }

  /// The index after a whole value starting at `start` (a string, an object or array with all
  /// it contains, or a literal), or the end of the bytes.
  private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
    let first = bytes[start]
    if first == quote { return stringEnd(bytes, from: start + 1) }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      var depth = 0
      var index = start
      while index < bytes.count {
        switch bytes[index] {
        case quote:
          index = stringEnd(bytes, from: index + 1)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return index + 1 }
        default:
          break
        }
        index += 1
      }
      return bytes.count
    }
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        || isWhitespace(byte)
      {
        break
      }
      index += 1
    }
    return index
  }

  /// The strings inside a redacted object or array, so later checks know their values.
  private static func collectStrings(_ bytes: ArraySlice<UInt8>, into removed: inout [String]) {
    let array = Array(bytes)
    var index = 0
    while index < array.count {
      if array[index] == quote {
        let end = stringEnd(array, from: index + 1)
        removed.append(decodeString(array, from: index + 1, to: end))
        index = end
      } else {
        index += 1
      }
    }
  }

  /// The text of a string between `start` and `end` (just past the closing quote, or the end
  /// of a string cut short), with its escapes decoded.
  static func decodeString(_ bytes: [UInt8], from start: Int, to end: Int) -> String {
    var contentEnd = end
    if contentEnd > start, contentEnd <= bytes.count, bytes[contentEnd - 1] == quote,
      !isEscaped(bytes, at: contentEnd - 1)
    {
      contentEnd -= 1
    }
    return String(
      decoding: JSONStringLiteral.unescape(bytes[start..<max(start, contentEnd)]), as: UTF8.self)
  }
}
