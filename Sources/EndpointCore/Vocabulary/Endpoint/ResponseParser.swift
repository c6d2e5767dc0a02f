#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Turns a response into a value: it checks the status, then parses the body.
///
/// The media type it accepts becomes the request's `Accept` field. Status validation is part of
/// the parser (2xx by default), so a stub or a real server answering 404 fails the same way.
///
/// ```swift
/// let count = ResponseParser<Int>(accept: "text/plain") { _, body in
///   guard let value = Int(String(decoding: body, as: UTF8.self)) else {
///     throw ParsingFailure(type: "Int", reason: "not a number", body: body)
///   }
///   return value
/// }
/// ```
public struct ResponseParser<Value>: Sendable {
  /// The media type sent as `Accept`, or `nil` for none.
  public var accept: String?
  /// The statuses that reach ``parse(_:_:)``; others throw ``UnexpectedResponse``.
  public var acceptedStatus: AcceptedStatus
  private let body: @Sendable (HTTPResponse, Data) throws -> Value

  /// Creates a parser from a closure.
  ///
  /// - Parameters:
  ///   - accept: the media type to ask for.
  ///   - acceptedStatus: the statuses to parse; 2xx by default.
  ///   - parse: makes the value from the response head and the complete body.
  public init(
    accept: String? = nil,
    acceptedStatus: AcceptedStatus = .success,
    parse: @escaping @Sendable (HTTPResponse, Data) throws -> Value
  ) {
    self.accept = accept
    self.acceptedStatus = acceptedStatus
    self.body = parse
  }

  /// Parses a body whose status was already accepted.
  public func parse(_ response: HTTPResponse, _ body: Data) throws -> Value {
    try self.body(response, body)
  }

  /// A parser that transforms this one's value.
  public func map<NewValue>(
    _ transform: @escaping @Sendable (Value) throws -> NewValue
  ) -> ResponseParser<NewValue> {
    let base = self
    return ResponseParser<NewValue>(accept: accept, acceptedStatus: acceptedStatus) {
      response, body in try transform(base.parse(response, body))
    }
  }

  /// A copy that accepts other statuses.
  public func accepting(_ status: AcceptedStatus) -> ResponseParser {
    var copy = self
    copy.acceptedStatus = status
    return copy
  }
}

extension ResponseParser where Value == Void {
  /// Checks the status and ignores the body.
  public static func void(expecting status: AcceptedStatus = .success) -> ResponseParser {
    ResponseParser(acceptedStatus: status) { _, _ in }
  }
}

extension ResponseParser where Value == Data {
  /// The body's bytes as they arrived.
  public static var data: ResponseParser {
    ResponseParser { _, body in body }
  }
}

extension ResponseParser where Value == String {
  /// The body as text, in the charset named by `Content-Type` (UTF-8 when none is named).
  ///
  /// Supports UTF-8, US-ASCII, ISO-8859-1 and UTF-16; bytes that are not valid in the charset,
  /// or another charset, throw ``ParsingFailure``.
  public static var string: ResponseParser {
    ResponseParser(accept: "text/plain") { response, body in
      try TextDecoding.decode(body, charset: response.charset)
    }
  }
}

enum TextDecoding {
  static func decode(_ body: Data, charset: String?) throws -> String {
    let name = charset ?? "utf-8"
    switch name {
    case "utf-8", "utf8":
      // A byte order mark is not part of the text.
      let bytes = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body[...]
      if let text = String(validating: bytes, as: UTF8.self) { return text }
    case "us-ascii", "ascii":
      if body.allSatisfy({ $0 < 0x80 }) { return String(decoding: body, as: UTF8.self) }
    case "iso-8859-1", "latin1", "iso8859-1", "latin-1":
      return String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
    case "utf-16", "utf-16le", "utf-16be":
      if let text = decodeUTF16(body, charset: name) { return text }
    default:
      throw ParsingFailure(
        type: "String",
        reason: "unsupported charset \(String(reflecting: name))",
        body: body
      )
    }
    throw ParsingFailure(type: "String", reason: "the body is not valid \(name)", body: body)
  }

  private static func decodeUTF16(_ body: Data, charset: String) -> String? {
    var bytes = Array(body)
    var bigEndian = charset == "utf-16be"
    // A byte order mark wins over the label, as in the WHATWG Encoding standard; without one,
    // plain "utf-16" is big-endian (RFC 2781).
    if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
      bigEndian = true
      bytes.removeFirst(2)
    } else if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
      bigEndian = false
      bytes.removeFirst(2)
    } else if charset == "utf-16" {
      bigEndian = true
    }
    guard bytes.count % 2 == 0 else { return nil }
    let units = stride(from: 0, to: bytes.count, by: 2).map { index -> UInt16 in
      let first = UInt16(bytes[index])
      let second = UInt16(bytes[index + 1])
      return bigEndian ? first << 8 | second : second << 8 | first
    }
    var text = ""
    var decoder = UTF16()
    var iterator = units.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
      case .emptyInput: return text
      case .error: return nil
      }
    }
  }
}
