/// The directives of the `Cache-Control` fields of a request or a response (RFC 9111 §5.2),
/// by lowercased name.
struct CacheControl {
  /// A directive's argument: `nil` for a directive without one.
  private(set) var directives: [String: String?] = [:]
  /// Names given more than once: RFC 9111 §4.2.1 makes their values invalid.
  private var repeated: Set<String> = []

  /// The directives of every `Cache-Control` field of `fields`; a request without
  /// `Cache-Control` but with `Pragma: no-cache` reads as `no-cache` (RFC 9111 §5.4).
  init(_ fields: HTTPFields, isRequest: Bool = false) {
    let values = fields.values(for: "Cache-Control")
    for value in values { parse(value) }
    if isRequest, values.isEmpty,
      fields.values(for: "Pragma").contains(where: { $0.lowercased().contains("no-cache") })
    {
      directives["no-cache"] = .some(nil)
    }
  }

  /// Whether the directive is present, with or without an argument.
  func contains(_ name: String) -> Bool {
    directives[name] != nil
  }

  /// A delta-seconds argument (RFC 9111 §1.2.2): `nil` when the directive is absent, `0` when
  /// its argument is missing, invalid or given twice, and at most 2³¹.
  func seconds(_ name: String) -> Int? {
    guard let argument = directives[name] else { return nil }
    guard !repeated.contains(name), let text = argument, !text.isEmpty,
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return 0 }
    return text.count > 10 ? 2_147_483_648 : min(Int(text) ?? 0, 2_147_483_648)
  }

  private mutating func parse(_ value: String) {
    for item in Self.split(value) {
      let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = pair[0].trimmed(" \t").lowercased()
      guard !name.isEmpty else { continue }
      var argument: String?
      if pair.count == 2 {
        var text = pair[1].trimmed(" \t")
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
          text = text.dropFirst().dropLast()
        }
        argument = String(text)
      }
      if directives[name] != nil { repeated.insert(name) }
      directives[name] = .some(argument)
    }
  }

  /// The list items of a field value: commas split it, except inside a quoted string.
  private static func split(_ value: String) -> [Substring] {
    var items: [Substring] = []
    var start = value.startIndex
    var quoted = false
    var escaped = false
    for index in value.indices {
      let character = value[index]
      if escaped {
        escaped = false
      } else if quoted, character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
      } else if character == ",", !quoted {
        items.append(value[start..<index])
        start = value.index(after: index)
      }
    }
    items.append(value[start...])
    return items.filter { !$0.trimmed(" \t").isEmpty }
  }
}
