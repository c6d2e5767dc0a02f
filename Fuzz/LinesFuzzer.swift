// libFuzzer target: HTTPBody.lines over arbitrary bytes in arbitrary chunks.
//
// Input: a limit byte, a byte giving how many chunk-size bytes follow, those sizes, the body.
// Invariants: the lines read in chunks are the lines of the whole body split at LF, CRLF and CR
// (a model written here), no line exceeds the limit, and a TransportFailure of kind .lineTooLong
// is thrown exactly when the model finds a longer line, after the lines before it.

@testable import EndpointCore

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  let limit = Int(input.byte())
  let sizes = input.piece()
  let bytes = input.rest()
  let expected = modelLines(bytes, limit: limit)
  let body = chunkedBody(bytes, sizes: sizes)
  let (lines, tooLong) = runBlocking { () async -> ([String], Bool) in
    var lines: [String] = []
    do {
      for try await line in body.lines(maximumLength: limit) { lines.append(line) }
      return (lines, false)
    } catch {
      invariant((error as? TransportFailure)?.kind == .lineTooLong, "unexpected error \(error)")
      return (lines, true)
    }
  }
  invariant(lines == expected.lines, "lines \(lines) != model \(expected.lines)")
  invariant(tooLong == expected.tooLong, "lineTooLong: \(tooLong), model: \(expected.tooLong)")
  for line in lines {
    invariant(line.utf8.count <= max(limit, 0) * 3, "a line past the limit: \(line.utf8.count)")
    invariant(!line.utf8.contains(0x0A) && !line.utf8.contains(0x0D), "a line ending kept")
  }
  return 0
}

/// The lines of `bytes` read at once; `tooLong` when a line (its bytes, ending not counted) is
/// longer than `limit`, with the lines before it.
private func modelLines(_ bytes: [UInt8], limit: Int) -> (lines: [String], tooLong: Bool) {
  var lines: [String] = []
  var current: [UInt8] = []
  var index = 0
  while index < bytes.count {
    let byte = bytes[index]
    if byte == 0x0A || byte == 0x0D {
      if current.count > limit { return (lines, true) }
      lines.append(String(decoding: current, as: UTF8.self))
      current = []
      if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
    } else {
      current.append(byte)
    }
    index += 1
  }
  if current.count > limit { return (lines, true) }
  if !current.isEmpty { lines.append(String(decoding: current, as: UTF8.self)) }
  return (lines, false)
}
