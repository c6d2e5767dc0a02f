// libFuzzer target: URLPath and percent-encoding.
//
// Input: a literal, an interpolated value, a second literal, then a base URL's path. Invariants:
// encoded text is printable ASCII without space, `#` or a stray `%`; an interpolated value stays
// one segment (keeping only `:` `@` `,` `;` `=` of the reserved characters) and decodes back to
// itself; encoding a path twice changes nothing; the resolved URL
// keeps the base's scheme and host (unless the path is an absolute URL).

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  let literal = input.string()
  let value = input.string()
  let tail = input.string()
  let basePath = input.string()

  let component = PercentEncoding.encodeComponent(value)
  invariant(isEncoded(component, extra: []), "component not encoded: \(component)")
  invariant(!component.contains("/"), "a slash in a segment")
  invariant(PercentEncoding.decode(component) == value, "decode(encode(x)) != x for \(value)")
  for encode in [PercentEncoding.encodePath(_:), PercentEncoding.encodeQuery(_:)] {
    let once = encode(literal)
    invariant(isEncoded(once, extra: Array("/:@!$&'()*+,;=?".utf8)), "literal not encoded: \(once)")
    invariant(encode(once) == once, "encoding twice changed \(once)")
  }

  var interpolation = URLPath.StringInterpolation(literalCapacity: 0, interpolationCount: 1)
  interpolation.appendLiteral(literal)
  interpolation.appendInterpolation(value)
  interpolation.appendLiteral(tail)
  let path = URLPath(stringInterpolation: interpolation)
  invariant(isEncoded(path.encoded, extra: Array("/:@!$&'()*+,;=?".utf8)), "path \(path.encoded)")
  // In the path a value keeps what a segment may hold (`:` `@` `,` `;` `=`); in the query it is
  // one query value.
  let segment = PercentEncoding.encodeSegment(value)
  invariant(isEncoded(segment, extra: Array(":@,;=".utf8)), "segment not encoded: \(segment)")
  invariant(PercentEncoding.decode(segment) == value, "decode(segment(x)) != x for \(value)")
  let inQuery = literal.utf8.contains(UInt8(ascii: "?"))
  let kept = path.encoded.contains(inQuery ? component : segment)
  invariant(kept || value == "." || value == "..", "segment lost: \(literal) \(value)")

  let baseText = "https://api.example/" + PercentEncoding.encodePath(basePath)
  guard let base = URL(string: baseText) else { return 0 }
  if let url = try? path.resolved(against: base), !path.isAbsoluteURL {
    invariant(url.scheme == "https" && url.host() == "api.example", "left the base: \(url)")
    invariant(url.fragment == nil, "a fragment appeared: \(url)")
  }
  return 0
}

/// Whether `text` holds only unreserved bytes, `extra` and `%XX` escapes.
private func isEncoded(_ text: String, extra: [UInt8]) -> Bool {
  let bytes = Array(text.utf8)
  var index = 0
  while index < bytes.count {
    let byte = bytes[index]
    if byte == UInt8(ascii: "%") {
      guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit
      else { return false }
      index += 3
      continue
    }
    guard PercentEncoding.isUnreserved(byte) || extra.contains(byte) else { return false }
    index += 1
  }
  return true
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
