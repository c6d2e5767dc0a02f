import EndpointKernel
import EndpointPrimitives

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

  /// What the fields that frame the body said, noted as they were parsed so that the head
  /// needs no second search (only unusual heads are looked at again).
  struct Framing {
    /// The number of `Content-Length` fields.
    var contentLengthCount = 0
    /// The first `Content-Length` value when it is one valid length (``ContentLength``).
    var contentLength: Int64?
    var hasContentEncoding = false
    var hasLocation = false
    var hasTransferEncoding = false

    /// At most one `Content-Length`, holding plain digits: no list that could conflict.
    var isPlain: Bool {
      contentLengthCount == 0 || (contentLengthCount == 1 && contentLength != nil)
    }
  }

  /// The fields the parser notes while it goes.
  private enum Kind {
    case other
    case contentLength
    case contentEncoding
    case location
    case setCookie
    case transferEncoding
  }

  private(set) var status: Int?
  /// The version of the status line when it is not HTTP/1.x (`HTTP/2` as libcurl writes an
  /// HTTP/2 head, or a server's odd answer); `nil` for HTTP/1.x.
  private(set) var otherVersion: String?
  /// Whether that status line has the form libcurl gives the head of an HTTP/2 or HTTP/3
  /// stream.
  private(set) var otherVersionAsLibcurlWrites = false
  private(set) var fields = HTTPFields()
  private(set) var framing = Framing()
  /// Whether any head of the exchange carried `Set-Cookie` (so the handle's cookies must be
  /// erased before it serves another exchange).
  private(set) var sawSetCookie = false
  private var pendingName: String?
  private var pendingValue = ""
  /// Whether the pending field is one HTTPFields accepts (a token name; no control character
  /// but HTAB in the value).
  private var pendingIsValid = false
  private var pendingKind = Kind.other

  /// Starts over for the next request of a redirect chain.
  mutating func reset() {
    status = nil
    otherVersion = nil
    otherVersionAsLibcurlWrites = false
    if !fields.isEmpty { fields = HTTPFields() }
    framing = Framing()
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
      let version = UnsafeRawBufferPointer(
        rebasing: text[0..<(text.firstIndex(of: 0x20) ?? text.count)])
      if !Self.isHTTP1(version) {
        otherVersion = String(decoding: version.prefix(20), as: UTF8.self)
        // libcurl writes an HTTP/2 or HTTP/3 head's status line as `HTTP/2 200 `: a status
        // and one space, no reason.
        otherVersionAsLibcurlWrites =
          text.count == version.count + 5 && text[text.count - 1] == 0x20
      }
      return .incomplete
    }
    if text[0] == 0x20 || text[0] == 0x09 {
      // Obsolete line folding: the line continues the previous field's value.
      if pendingName != nil {
        let more = Self.trimmed(text)
        pendingIsValid = pendingIsValid && Self.isFieldValue(more)
        // One space joins two non-empty parts; an empty part adds none, so the value stays
        // trimmed as an unfolded one is.
        if !more.isEmpty {
          if !pendingValue.isEmpty { pendingValue += " " }
          pendingValue += String(decoding: more, as: UTF8.self)
        }
      }
      return .incomplete
    }
    flush()
    guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return .incomplete }
    let name = UnsafeRawBufferPointer(rebasing: text[0..<colon])
    let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: text[(colon + 1)...]))
    // Checked here, on the bytes, once: the field then goes into HTTPFields unchecked.
    pendingIsValid = Self.isToken(name) && Self.isFieldValue(value)
    pendingKind = Self.kind(of: name)
    pendingName = String(decoding: name, as: UTF8.self)
    pendingValue = String(decoding: value, as: UTF8.self)
    return .incomplete
  }

  /// The body length `response` (the head just parsed) declares for a request with `method`;
  /// see ``HTTPResponse/declaredBodyLength(method:)``.
  func declaredBodyLength(of response: HTTPResponse, method: HTTPMethod) -> Int64? {
    guard framing.isPlain, !framing.hasContentEncoding else {
      return response.declaredBodyLength(method: method)
    }
    if !ResponseFraming.hasBody(status: response.status, method: method) { return 0 }
    return framing.contentLength
  }

  /// Why the `Content-Length` of `response` (the head just parsed) is not one length, or `nil`
  /// when it is (or there is none). The SDK reads it strictly, not as libcurl would: every value
  /// must be plain digits that fit in 63 bits (no sign, no `0x`, no inner space), and repeated
  /// values (`5, 5` or two fields) must be equal (RFC 9112, section 6.3).
  func invalidContentLength(of response: HTTPResponse) -> String? {
    if framing.isPlain { return nil }
    let values = response.headerFields.values(for: "Content-Length")
    let lengths = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      .map { ContentLength.parse($0, maximumDigits: Self.maximumLengthDigits) }
    let shown = HTTPToken.quotedForMessage(values.joined(separator: ", "), limit: 60)
    if lengths.contains(nil) { return "Content-Length \(shown) is not a plain length" }
    if Set(lengths).count > 1 { return "conflicting Content-Length values \(shown)" }
    return nil
  }

  private mutating func flush() {
    guard let name = pendingName else { return }
    pendingName = nil
    if case .setCookie = pendingKind { sawSetCookie = true }
    // A field HTTPFields rejects (a name that is not a token, NUL in the value) is dropped.
    if pendingIsValid {
      fields.append(checkedValue: pendingValue, for: name)
      switch pendingKind {
      case .contentLength:
        framing.contentLengthCount += 1
        if framing.contentLengthCount == 1 {
          framing.contentLength = ContentLength.parse(
            pendingValue, maximumDigits: Self.maximumLengthDigits)
        }
      case .contentEncoding: framing.hasContentEncoding = true
      case .location: framing.hasLocation = true
      case .transferEncoding: framing.hasTransferEncoding = true
      case .setCookie, .other: break
      }
    }
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

  /// Whether `version` is `HTTP/1.` and one digit.
  private static func isHTTP1(_ version: UnsafeRawBufferPointer) -> Bool {
    version.count == 8 && version.starts(with: "HTTP/1.".utf8) && (0x30...0x39).contains(version[7])
  }

  private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    var start = 0
    var end = bytes.count
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
  }

  /// The most digits of a `Content-Length` number: 18 always fit in 63 bits; a longer length is
  /// no length a body can have here.
  static let maximumLengthDigits = 18

  /// Whether `bytes` is an RFC 9110 token, as HTTPFields requires of a name.
  private static func isToken(_ bytes: UnsafeRawBufferPointer) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy(HTTPToken.isTokenByte)
  }

  /// Whether `bytes` holds no control character but HTAB, as HTTPFields requires of a value.
  private static func isFieldValue(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes where (byte < 0x20 && byte != 0x09) || byte == 0x7F { return false }
    return true
  }

  private static func kind(of name: UnsafeRawBufferPointer) -> Kind {
    switch name.count {
    case 8: return matches(name, "location") ? .location : .other
    case 10: return matches(name, "set-cookie") ? .setCookie : .other
    case 14: return matches(name, "content-length") ? .contentLength : .other
    case 16: return matches(name, "content-encoding") ? .contentEncoding : .other
    case 17: return matches(name, "transfer-encoding") ? .transferEncoding : .other
    default: return .other
    }
  }

  /// Whether `bytes` is `lowercased` ignoring ASCII case.
  private static func matches(_ bytes: UnsafeRawBufferPointer, _ lowercased: StaticString) -> Bool {
    lowercased.withUTF8Buffer { expected in
      guard expected.count == bytes.count else { return false }
      for index in 0..<bytes.count {
        let byte = bytes[index]
        let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
        if lower != expected[index] { return false }
      }
      return true
    }
  }
}
