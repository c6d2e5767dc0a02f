#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Bounded, UTF-8-safe previews of message bodies for error messages and logs.
enum BodyPreview {
  /// The default number of bytes shown.
  static let defaultLimit = 512

  /// A printable preview of `body`: at most `limit` bytes of its text, cut on a character boundary,
  /// with the number of bytes left out; binary data is described by its size only.
  ///
  static func text(of body: Data, limit: Int = defaultLimit) -> String {
    if body.isEmpty { return "<empty>" }
    let limit = max(0, limit)
    var end = min(body.count, limit)
    // Back off to the start of a UTF-8 sequence so no character is cut in half.
    if end < body.count {
      while end > 0, body[body.startIndex + end] & 0xC0 == 0x80 { end -= 1 }
    }
    let prefix = body.prefix(end)
    guard let text = String(validating: prefix, as: UTF8.self),
      !text.unicodeScalars.contains(where: isBinaryScalar)
    else {
      return "<\(body.count) bytes of binary data>"
    }
    let rest = body.count - end
    return rest == 0 ? text : "\(text)… (\(rest) more bytes)"
  }

  private static func isBinaryScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t"
  }

  /// A preview of a body of which only the first bytes, `kept`, are at hand; `total` is the
  /// whole body's length.
  static func text(ofPrefix kept: Data, total: Int64, limit: Int) -> String {
    if Int64(kept.count) >= total { return text(of: kept, limit: limit) }
    if kept.isEmpty { return "<\(total) bytes not shown>" }
    var end = min(kept.count, max(0, limit))
    while end > 0, end < kept.count, kept[kept.startIndex + end] & 0xC0 == 0x80 { end -= 1 }
    let prefix = kept.prefix(end)
    guard let text = String(validating: prefix, as: UTF8.self),
      !text.unicodeScalars.contains(where: isBinaryScalar)
    else { return "<\(total) bytes of binary data>" }
    return "\(text)… (\(total - Int64(end)) more bytes)"
  }
}
