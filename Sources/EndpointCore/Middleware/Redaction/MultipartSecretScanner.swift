/// Replaces the content of secret fields in a `multipart/form-data` body, keeping every other
/// byte as it was; other parts' content goes through `redactContent` (JSON inside a part).
enum MultipartSecretScanner {
  private static let crlf: [UInt8] = [0x0D, 0x0A]

  /// The boundary from a `multipart/…; boundary=…` media type, or else from a body that starts
  /// with a delimiter line.
  static func boundary(contentType: String?, bytes: [UInt8]) -> [UInt8]? {
    if let contentType, contentType.lowercased().hasPrefix("multipart/") {
      for parameter in contentType.split(separator: ";").dropFirst() {
        let trimmed = parameter.trimmed(" \t")
        guard trimmed.lowercased().hasPrefix("boundary=") else { continue }
        var value = trimmed.dropFirst("boundary=".count)
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
          value = value.dropFirst().dropLast()
        }
        if !value.isEmpty { return Array(value.utf8) }
      }
    }
    guard bytes.count > 4, bytes[0] == UInt8(ascii: "-"), bytes[1] == UInt8(ascii: "-"),
      let lineEnd = firstIndex(of: crlf, in: bytes, from: 2), (3...72).contains(lineEnd - 2)
    else { return nil }
    let line = bytes[2..<lineEnd]
    guard line.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
    return Array(line)
  }

  static func redact(
    _ bytes: [UInt8],
    boundary: [UInt8],
    hidesField: (String) -> Bool,
    redactContent: ([UInt8], String?, inout [String]) -> [UInt8],
    removed: inout [String]
  ) -> [UInt8] {
    let delimiter = Array("--".utf8) + boundary
    var starts: [Int] = []
    var search = 0
    while let found = firstIndex(of: delimiter, in: bytes, from: search) {
      starts.append(found)
      search = found + delimiter.count
    }
    guard let first = starts.first else { return bytes }
    var output = Array(bytes[..<first])
    for (position, start) in starts.enumerated() {
      let segmentEnd = position + 1 < starts.count ? starts[position + 1] : bytes.count
      let segmentStart = start + delimiter.count
      output += delimiter
      guard let headersEnd = firstIndex(of: crlf + crlf, in: bytes, from: segmentStart),
        headersEnd < segmentEnd
      else {
        output += bytes[segmentStart..<segmentEnd]
        continue
      }
      let headers = String(decoding: bytes[segmentStart..<headersEnd], as: UTF8.self)
      output += bytes[segmentStart..<headersEnd + 4]
      var contentEnd = segmentEnd
      if position + 1 < starts.count, contentEnd - 2 >= headersEnd + 4,
        bytes[contentEnd - 2] == 0x0D, bytes[contentEnd - 1] == 0x0A
      {
        contentEnd -= 2
      }
      let content = Array(bytes[headersEnd + 4..<contentEnd])
      if let name = fieldName(headers), hidesField(name) {
        removed.append(String(decoding: content, as: UTF8.self))
        output += Array(HTTPFields.redactedValue.utf8)
      } else {
        output += redactContent(content, header("content-type", in: headers), &removed)
      }
      output += bytes[contentEnd..<segmentEnd]
    }
    return output
  }

  /// The `name` parameter of the part's `Content-Disposition`.
  private static func fieldName(_ headers: String) -> String? {
    guard let disposition = header("content-disposition", in: headers) else { return nil }
    for parameter in disposition.split(separator: ";").dropFirst() {
      let trimmed = parameter.trimmed(" \t")
      guard trimmed.lowercased().hasPrefix("name=") else { continue }
      var value = trimmed.dropFirst("name=".count)
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
        value = value.dropFirst().dropLast()
      }
      return String(value)
    }
    return nil
  }

  private static func header(_ name: String, in headers: String) -> String? {
    for line in headers.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
      guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else {
        continue
      }
      return String(line[line.index(after: colon)...].trimmed(" \t"))
    }
    return nil
  }

  static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard !needle.isEmpty, start >= 0, bytes.count >= needle.count else { return nil }
    var index = start
    while index <= bytes.count - needle.count {
      if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) {
        return index
      }
      index += 1
    }
    return nil
  }
}
