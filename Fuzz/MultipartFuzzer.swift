// libFuzzer target: multipart/form-data bodies (RequestPayload.multipart, MultipartPart).
//
// Input: a few boundary candidates, then parts (name, file name or none, media type or none,
// data). Invariants: the boundary chosen occurs in no part, so splitting the body at it gives
// back every part in order; each part's header lines are one line each (no CR or LF from a name,
// file name or media type) and its data comes back unchanged.

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
  // Short candidates first, so the data often holds them; the last is long enough to be
  // unique. Hex digits only, as the SDK's own candidates are.
  let hex = Array("0123456789abcdef")
  var candidates = (0..<Int(input.byte() % 4)).map { _ in
    String(input.piece().prefix(8).map { hex[Int($0 % 16)] })
  }
  candidates = candidates.filter { !$0.isEmpty }
  candidates.append("0123456789abcdef0123456789abcdef0123456789abcdef")
  var parts: [MultipartPart] = []
  while !input.isAtEnd, parts.count < 8 {
    let flags = input.byte()
    let name = input.string()
    let filename = flags & 1 == 0 ? nil : input.string()
    let contentType = flags & 2 == 0 ? nil : input.string()
    parts.append(
      MultipartPart(
        name: name, filename: filename, contentType: contentType, data: Data(input.piece())))
  }
  var next = candidates[...]
  let payload = RequestPayload.multipart(parts) {
    next.popFirst()
      ?? "fedcba9876543210fedcba9876543210fedcba9876543210\(UInt64.random(in: 0...UInt64.max))"
  }
  let prefix = "multipart/form-data; boundary="
  guard let contentType = payload.contentType, contentType.hasPrefix(prefix),
    let data = payload.body?.data
  else {
    invariant(false, "no boundary or no body for \(parts.count) parts")
    return 0
  }
  let boundary = Array(contentType.utf8.dropFirst(prefix.utf8.count))
  let body = Array(data)
  let close = Array("--".utf8) + boundary + Array("--\r\n".utf8)
  invariant(
    body.count >= close.count && Array(body.suffix(close.count)) == close, "no closing delimiter")
  let opening = Array("--".utf8) + boundary + [0x0D, 0x0A]
  let pieces = split(Array(body.dropLast(close.count)), at: opening)
  invariant(pieces.first == [], "bytes before the first delimiter")
  let found = pieces.dropFirst()
  invariant(found.count == parts.count, "\(found.count) parts found, \(parts.count) written")
  for (piece, part) in zip(found, parts) {
    invariant(piece.suffix(2) == [0x0D, 0x0A], "a part not ended by CRLF")
    let rendered = Array(piece.dropLast(2))
    let headEnd = split(rendered, at: [0x0D, 0x0A, 0x0D, 0x0A])
    invariant(headEnd.count >= 2, "a part without a blank line")
    let head = headEnd[0]
    let lines = split(head, at: [0x0D, 0x0A])
    invariant(lines.count == (part.contentType == nil ? 1 : 2), "header lines: \(lines.count)")
    for line in lines {
      invariant(!line.contains(0x0D) && !line.contains(0x0A), "a line break in a header line")
    }
    let dataStart = head.count + 4
    invariant(Array(rendered[dataStart...]) == Array(part.data), "the data changed")
  }
  return 0
}

/// `bytes` cut at every occurrence of `separator`.
private func split(_ bytes: [UInt8], at separator: [UInt8]) -> [[UInt8]] {
  var pieces: [[UInt8]] = []
  var start = 0
  var index = 0
  while index + separator.count <= bytes.count {
    if bytes[index..<index + separator.count].elementsEqual(separator) {
      pieces.append(Array(bytes[start..<index]))
      index += separator.count
      start = index
    } else {
      index += 1
    }
  }
  pieces.append(Array(bytes[start...]))
  return pieces
}
