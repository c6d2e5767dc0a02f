/// Renders coding paths the way a user would write them: `items[2].id`, `meta["first name"]`.
enum CodingPath {
  /// The path as text, or `nil` for the top-level value.
  static func text(_ keys: [any CodingKey]) -> String? {
    if keys.isEmpty { return nil }
    var text = ""
    for key in keys {
      // JSON array positions arrive as keys named "Index N"; a dictionary key "7" also has an
      // integer value, so the name tells the two apart.
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        text += "[\(index)]"
      } else if isPlainName(key.stringValue) {
        if !text.isEmpty { text += "." }
        text += key.stringValue
      } else {
        text += "[\(String(reflecting: key.stringValue))]"
      }
    }
    return text
  }

  private static func isPlainName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first == "_" || isLetter(first) else {
      return false
    }
    return name.unicodeScalars.allSatisfy { $0 == "_" || isLetter($0) || ("0"..."9").contains($0) }
  }

  private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }
}
