#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One link of a `Link` header field (RFC 8288): a target and its parameters.
struct WebLink: Sendable, Hashable {
  /// The target as written between `<` and `>`, not yet resolved.
  let target: String
  /// The parameters, names lower-cased, values unquoted; `rel` may hold several
  /// space-separated relation types.
  let parameters: [String: String]

  /// Whether the link's `rel` names `relation` (compared ignoring case, among several).
  func hasRelation(_ relation: String) -> Bool {
    guard let rel = parameters["rel"] else { return false }
    return rel.split(separator: " ").contains { $0.lowercased() == relation.lowercased() }
  }

  /// The links of `Link` field values, in order: commas and semicolons inside a quoted string or
  /// inside `<…>` do not split them; parameters may be quoted or not; a malformed link is
  /// skipped.
  static func parse(_ values: [String]) -> [WebLink] {
    values.flatMap { parse($0) }
  }

  /// The links of one `Link` field value.
  static func parse(_ value: String) -> [WebLink] {
    var links: [WebLink] = []
    var scanner = Substring(value)[...]
    while true {
      scanner = scanner.drop { $0 == " " || $0 == "\t" || $0 == "," }
      guard scanner.first == "<", let close = scanner.firstIndex(of: ">") else { break }
      let target = String(scanner[scanner.index(after: scanner.startIndex)..<close])
      scanner = scanner[scanner.index(after: close)...]
      var parameters: [String: String] = [:]
      // Parameters: `; name=value` or `; name="quoted, value"`, until a comma outside quotes.
      while true {
        scanner = scanner.drop { $0 == " " || $0 == "\t" }
        guard scanner.first == ";" else { break }
        scanner = scanner.dropFirst().drop { $0 == " " || $0 == "\t" }
        let name = scanner.prefix { $0 != "=" && $0 != ";" && $0 != "," }
        scanner = scanner[name.endIndex...]
        var parameterValue = ""
        if scanner.first == "=" {
          scanner = scanner.dropFirst().drop { $0 == " " || $0 == "\t" }
          if scanner.first == "\"" {
            scanner = scanner.dropFirst()
            var escaped = false
            var end = scanner.endIndex
            for index in scanner.indices {
              let character = scanner[index]
              if escaped {
                parameterValue.append(character)
                escaped = false
              } else if character == "\\" {
                escaped = true
              } else if character == "\"" {
                end = index
                break
              } else {
                parameterValue.append(character)
              }
            }
            scanner = end < scanner.endIndex ? scanner[scanner.index(after: end)...] : ""
          } else {
            let token = scanner.prefix { $0 != ";" && $0 != "," }
            parameterValue = trimmed(token)
            scanner = scanner[token.endIndex...]
          }
        }
        let key = trimmed(name).lowercased()
        // The first occurrence of a parameter wins (RFC 8288, section 3).
        if !key.isEmpty, parameters[key] == nil { parameters[key] = parameterValue }
      }
      links.append(WebLink(target: target, parameters: parameters))
      // Anything up to the next comma belongs to no link.
      scanner = scanner.drop { $0 != "," }
    }
    return links
  }

  private static func trimmed(_ text: Substring) -> String {
    String(text.trimmed(" \t"))
  }
}
