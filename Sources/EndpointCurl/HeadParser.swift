/// Builds a response head from the lines libcurl hands to the header callback: the status line,
/// the fields in the order the server sent them (repeated names kept apart), then a blank line.
///
/// Interim `1xx` heads are skipped. libcurl passes HTTP/2 heads in the same form
/// (`HTTP/2 200`).
struct HeadParser {
  enum Event {
    /// More lines to come.
    case incomplete
    /// A final head is complete.
    case complete
  }

  private(set) var status: Int?
  private(set) var fields = HTTPFields()
  /// Whether any head of the exchange carried `Set-Cookie` (so the handle's cookies must be
  /// erased before it serves another exchange).
  private(set) var sawSetCookie = false
  private var pendingName: String?
  private var pendingValue = ""

  /// Starts over for the next request of a redirect chain.
  mutating func reset() {
    status = nil
    fields = HTTPFields()
    pendingName = nil
    pendingValue = ""
  }

  mutating func consume(_ line: UnsafeRawBufferPointer) -> Event {
    var end = line.count
    while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
    let text = UnsafeRawBufferPointer(rebasing: line[0..<end])
    if text.isEmpty {
      flush()
      guard let status else { return .incomplete }
      if (100..<200).contains(status) {
        reset()
        return .incomplete
      }
      return .complete
    }
    if text.starts(with: "HTTP/".utf8) {
      reset()
      status = Self.parseStatus(text)
      return .incomplete
    }
    if text[0] == 0x20 || text[0] == 0x09 {
      // Obsolete line folding: the line continues the previous field's value.
      if pendingName != nil {
        pendingValue += " " + Self.trimmed(text)
      }
      return .incomplete
    }
    flush()
    guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return .incomplete }
    let name = String(decoding: UnsafeRawBufferPointer(rebasing: text[0..<colon]), as: UTF8.self)
    pendingName = name
    pendingValue = Self.trimmed(UnsafeRawBufferPointer(rebasing: text[(colon + 1)...]))
    return .incomplete
  }

  private mutating func flush() {
    guard let name = pendingName else { return }
    pendingName = nil
    if FieldName.equals(name, "set-cookie") { sawSetCookie = true }
    // A field HTTPFields rejects (a name that is not a token, NUL in the value) is dropped.
    try? fields.append(pendingValue, for: name)
    pendingValue = ""
  }

  private static func parseStatus(_ line: UnsafeRawBufferPointer) -> Int? {
    guard let space = line.firstIndex(of: 0x20) else { return nil }
    var index = space + 1
    var status = 0
    var digits = 0
    while index < line.count, digits < 3, (0x30...0x39).contains(line[index]) {
      status = status * 10 + Int(line[index] - 0x30)
      index += 1
      digits += 1
    }
    return digits == 3 ? status : nil
  }

  private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> String {
    var start = 0
    var end = bytes.count
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }
}

extension HTTPResponse {
  /// The body length the response declares, when it is the length of the bytes delivered:
  /// `nil` without `Content-Length` or with a `Content-Encoding` (libcurl decodes the body, so
  /// the declared length is the compressed one), and 0 for responses that have no body.
  func declaredBodyLength(method: HTTPMethod) -> Int64? {
    if !Self.hasBody(status: status, method: method) { return 0 }
    if let encoding = headerFields["Content-Encoding"], encoding.lowercased() != "identity" {
      return nil
    }
    // Repeated identical values ("5" twice, or "5, 5") count once; conflicting ones are
    // rejected before this is asked.
    guard let text = headerFields.values(for: "Content-Length").first?.split(separator: ",").first,
      let length = Int64(text.trimmingSpaces()), length >= 0
    else { return nil }
    return length
  }

  /// The `Content-Length` values when they disagree (RFC 9112, section 6.3: a message with
  /// conflicting lengths must be rejected), otherwise `nil`.
  var conflictingContentLengths: [String]? {
    let values = headerFields.values(for: "Content-Length")
      .flatMap { $0.split(separator: ",") }
      .map { $0.trimmingSpaces() }
    guard let first = values.first else { return nil }
    return values.allSatisfy({ $0 == first }) ? nil : values
  }

  /// Whether a response with `status` to `method` can have a body (RFC 9110, section 6.4.1).
  static func hasBody(status: Int, method: HTTPMethod) -> Bool {
    !(method == .head || (100..<200).contains(status) || status == 204 || status == 304)
  }
}

extension Substring {
  func trimmingSpaces() -> String {
    var text = self
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return String(text)
  }
}
