/// An `entity-tag` (RFC 9110 §8.8.3): `"xyzzy"` or, weak, `W/"xyzzy"`.
struct EntityTag {
  /// Whether the tag has the `W/` prefix.
  let isWeak: Bool
  /// The quoted part, quotes included.
  let opaque: Substring

  /// The tag in `value`, or `nil` when it is not one (unquoted, `w/` in lowercase, a space or a
  /// quote inside).
  init?(_ value: String) {
    let text = value.trimmed(" \t")
    let weak = text.hasPrefix("W/")
    let opaque = weak ? text.dropFirst(2) : text
    guard opaque.count >= 2, opaque.hasPrefix("\""), opaque.hasSuffix("\""),
      opaque.utf8.dropFirst().dropLast().allSatisfy({ $0 == 0x21 || $0 >= 0x23 && $0 != 0x7F })
    else { return nil }
    isWeak = weak
    self.opaque = opaque
  }

  /// Strong comparison (RFC 9110 §8.8.3.2): both strong, and the same characters.
  func matchesStrongly(_ other: Self) -> Bool {
    !isWeak && !other.isWeak && opaque == other.opaque
  }

  /// Weak comparison: the same characters, either tag weak or not.
  func matchesWeakly(_ other: Self) -> Bool {
    opaque == other.opaque
  }
}
