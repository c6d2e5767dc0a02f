import Foundation

/// A value of the document, converted once from what `JSONSerialization` reads.
enum JSONNode: Sendable, Equatable {
  case object([String: JSONNode])
  case array([JSONNode])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  init(_ value: Any) {
    switch value {
    case let object as [String: Any]:
      self = .object(object.mapValues(JSONNode.init))
    case let array as [Any]:
      self = .array(array.map(JSONNode.init))
    case let string as String:
      self = .string(string)
    case let number as NSNumber:
      // JSONSerialization reads `true` and `false` as NSNumbers of type char ("c").
      if String(cString: number.objCType) == "c" {
        self = .bool(number.boolValue)
      } else {
        self = .number(number.doubleValue)
      }
    default:
      self = .null
    }
  }

  subscript(key: String) -> JSONNode? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  var object: [String: JSONNode]? {
    if case .object(let object) = self { return object }
    return nil
  }

  var array: [JSONNode]? {
    if case .array(let array) = self { return array }
    return nil
  }

  var string: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  var bool: Bool? {
    if case .bool(let bool) = self { return bool }
    return nil
  }
}

/// JSON pointers (RFC 6901) in their URI fragment form, `#/paths/~1users/get`.
enum JSONPointer {
  static let root = "#"

  /// `pointer` extended by one reference token, escaped.
  static func appending(_ token: String, to pointer: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") })
    else { return pointer + "/" + token }
    let escaped = token.replacingOccurrences(of: "~", with: "~0")
      .replacingOccurrences(of: "/", with: "~1")
    return pointer + "/" + escaped
  }

  /// The reference tokens of a local reference (`#/components/schemas/Pet`), unescaped;
  /// `nil` for a reference to another document.
  static func tokens(ofLocalReference reference: String) -> [String]? {
    guard reference.hasPrefix("#") else { return nil }
    let fragment = reference.dropFirst().removingPercentEncoding ?? String(reference.dropFirst())
    if fragment.isEmpty { return [] }
    guard fragment.hasPrefix("/") else { return nil }
    return fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
      $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
  }
}
