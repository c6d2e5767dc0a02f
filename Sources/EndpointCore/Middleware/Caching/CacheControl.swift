/// The directives of the `Cache-Control` fields of a request or a response (RFC 9111 §5.2),
/// by lowercased name.
///
/// Read conservatively: a lifetime that cannot be read is never read as a long one.
/// `max-age=100a`, `max-age=1.5`, `max-age = 100` (spaces around `=`, which the grammar does not
/// allow) and a directive given twice all read as `0` (RFC 9111 §4.2.1 lets a cache treat a
/// repeated directive as stale); a quoted `max-age="100"` reads as `100`, since recipients
/// ought to accept both forms (§5.2).
struct CacheControl {
  /// A directive's argument: `nil` for a directive without one. An argument that breaks the
  /// grammar (spaces around `=`, an unterminated quote) is kept as `invalidArgument`.
  private(set) var directives: [String: String?] = [:]
  /// Names given more than once: RFC 9111 §4.2.1 makes their values invalid.
  private var repeated: Set<String> = []
  /// The field names of every qualified `no-cache="…"`, lowercased (RFC 9111 §5.2.2.4).
  private(set) var noCacheFields: Set<String> = []
  /// Whether an unqualified `no-cache` (or a qualified one that cannot be read) is present.
  private(set) var hasUnqualifiedNoCache = false

  /// What an argument that breaks the grammar reads as: never a number nor a field list.
  private static let invalidArgument = "\u{0}invalid"

  /// The directives of every `Cache-Control` field of `fields`; a request without
  /// `Cache-Control` but with `Pragma: no-cache` reads as `no-cache` (RFC 9111 §5.4).
  init(_ fields: HTTPFields, isRequest: Bool = false) {
    let values = fields.values(for: "Cache-Control")
    for value in values { parse(value) }
    if isRequest, values.isEmpty,
      fields.values(for: "Pragma").contains(where: { value in
        Self.split(value).contains { $0.trimmed(" \t").lowercased() == "no-cache" }
      })
    {
      directives["no-cache"] = .some(nil)
      hasUnqualifiedNoCache = true
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
    return Self.deltaSeconds(repeated.contains(name) ? nil : argument) ?? 0
  }

  /// A delta-seconds argument that must not be read short when it cannot be read (`min-fresh`):
  /// `nil` when absent, 2³¹ when missing, invalid or given twice.
  func secondsOrLongest(_ name: String) -> Int? {
    guard let argument = directives[name] else { return nil }
    return Self.deltaSeconds(repeated.contains(name) ? nil : argument) ?? 2_147_483_648
  }

  /// `text` as delta-seconds, or `nil` when it is not one.
  private static func deltaSeconds(_ text: String?) -> Int? {
    guard let text, !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return nil
    }
    return text.count > 10 ? 2_147_483_648 : min(Int(text) ?? 0, 2_147_483_648)
  }

  private mutating func parse(_ value: String) {
    for item in Self.split(value) {
      let pair = item.trimmed(" \t").split(
        separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let rawName = pair[0]
      let name = rawName.trimmed(" \t").lowercased()
      guard !name.isEmpty else { continue }
      var argument: String?
      if pair.count == 2 {
        argument = Self.argument(pair[1], spacedName: rawName.last == " " || rawName.last == "\t")
      }
      if directives[name] != nil { repeated.insert(name) }
      directives[name] = .some(argument)
      if name == "no-cache" { noteNoCache(argument) }
    }
  }

  /// The argument after `=`: a token or the content of a quoted string; `invalidArgument` when
  /// there are spaces around `=` or the quoted string is not closed.
  private static func argument(_ raw: Substring, spacedName: Bool) -> String {
    let text = raw.trimmed(" \t")
    guard !spacedName, text.count == raw.count else { return invalidArgument }
    guard text.hasPrefix("\"") else { return String(text) }
    guard text.count >= 2, text.hasSuffix("\"") else { return invalidArgument }
    var unquoted = ""
    var escaped = false
    for character in text.dropFirst().dropLast() {
      if escaped {
        unquoted.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        unquoted.append(character)
      }
    }
    return escaped ? invalidArgument : unquoted
  }

  /// Records a `no-cache` directive: with a list of field names, those names; anything else
  /// (no argument, or one that cannot be read) is the unqualified form, which is stricter.
  private mutating func noteNoCache(_ argument: String?) {
    guard let argument, argument != Self.invalidArgument else {
      hasUnqualifiedNoCache = true
      return
    }
    let names = argument.split(separator: ",").map { $0.trimmed(" \t").lowercased() }
    guard !names.isEmpty, names.allSatisfy({ Self.isToken($0) }) else {
      hasUnqualifiedNoCache = true
      return
    }
    noCacheFields.formUnion(names)
  }

  /// Whether `text` is a token (RFC 9110 §5.6.2), as a field name is.
  static func isToken(_ text: some StringProtocol) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || tokenSymbols.contains(byte)
      }
  }

  private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

  /// The list items of a field value: commas split it, except inside a quoted string.
  static func split(_ value: String) -> [Substring] {
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
