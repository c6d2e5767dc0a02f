// libFuzzer target: EndpointCurl's HeadParser over arbitrary header lines.
//
// Input: lines split at LF (each handed over with its LF, as libcurl does), then a final
// blank line. Invariants: every field the parser keeps is one HTTPFields would accept (a token
// name, no control character but HTAB in the value), a complete head has a status of three
// digits, and the framing it noted agrees with the fields: Content-Length counted, a single one
// read by ContentLength, Content-Encoding and Location seen.

import EndpointKernel

@testable import EndpointCore

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
  var parser = HeadParser()
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
    Array($0) + [0x0A]
  }
  lines.append([0x0D, 0x0A])
  for line in lines {
    let event = line.withUnsafeBytes { parser.consume($0) }
    if case .complete = event {
      check(parser)
      parser.reset()
    }
  }
  return 0
}

private func check(_ parser: HeadParser) {
  guard let status = parser.status else {
    invariant(false, "a complete head without a status")
    return
  }
  invariant(
    (0...999).contains(status) && !(100..<200).contains(status),
    "status \(status) completed a head")
  for field in parser.fields {
    let checked = try? HTTPFields.Field(name: field.name, value: field.value)
    invariant(checked != nil, "kept a field HTTPFields rejects: \(String(reflecting: field.name))")
    for edge in [field.value.utf8.first, field.value.utf8.last] {
      invariant(
        edge != 0x20 && edge != 0x09, "value not trimmed: \(String(reflecting: field.value))")
    }
  }
  let lengths = parser.fields.values(for: "Content-Length")
  invariant(parser.framing.contentLengthCount == lengths.count, "Content-Length count")
  if lengths.count == 1 {
    let length = ContentLength.parse(lengths[0], maximumDigits: HeadParser.maximumLengthDigits)
    invariant(parser.framing.contentLength == length, "Content-Length")
  }
  invariant(
    parser.framing.hasContentEncoding == parser.fields.contains("Content-Encoding"),
    "Content-Encoding noted")
  invariant(parser.framing.hasLocation == parser.fields.contains("Location"), "Location noted")
  let response = HTTPResponse(status: status, headerFields: parser.fields)
  for method in [HTTPMethod.get, .head] {
    let declared = parser.declaredBodyLength(of: response, method: method)
    invariant(declared.map { $0 >= 0 } ?? true, "a negative length")
    if parser.invalidContentLength(of: response) == nil, !parser.framing.hasContentEncoding {
      invariant(
        declared == response.declaredBodyLength(method: method),
        "fast and slow declared lengths differ")
    }
  }
}
