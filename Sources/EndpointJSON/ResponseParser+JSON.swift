#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ResponseParser where Value: Decodable & SendableMetatype {
  /// A parser that decodes a JSON body and asks for `application/json`.
  ///
  /// When `Value` is an `Optional`, an empty body (or one of only whitespace) and a
  /// `204 No Content` give `nil`; a `null` body does too.
  ///
  /// `Value`'s `Decodable` conformance must be usable from any task (`SendableMetatype`, which
  /// every type not isolated to an actor has), because the body is decoded wherever the
  /// response arrives.
  ///
  /// ```swift
  /// let parser = ResponseParser<[Todo]>.json()
  /// let todos = try parser.parse(response, body)
  /// ```
  /// - Parameters:
  ///   - decoder: the decoder; a shared default one unless given.
  ///   - status: the statuses to parse; 2xx by default.
  /// - Returns: a parser that throws ``EndpointCore/ParsingFailure`` naming the coding path that failed (such
  ///   as `items[2].id`), why, and a bounded snippet of the body.
  public static func json(
    decoder: JSONDecoder = SharedCoders.decoder,
    expecting status: AcceptedStatus = .success
  ) -> ResponseParser {
    ResponseParser(accept: "application/json", acceptedStatus: status) { response, body in
      // Only an empty body or a 204 needs to know whether `Value` is an `Optional`, so the
      // check stays off the common path.
      if response.status == 204 || JSONWhitespace.isBlank(body),
        let none: Value = NoValue.of()
      {
        return none
      }
      return try JSONCoding.decode(from: body, decoder: decoder)
    }
  }
}

extension ResponseParser where Value == Void {
  /// A parser that asks for `application/json`, checks the status and ignores the body.
  public static func json(expecting status: AcceptedStatus = .success) -> ResponseParser {
    ResponseParser(accept: "application/json", acceptedStatus: status) { _, _ in }
  }
}

/// The bytes JSON allows between tokens.
private enum JSONWhitespace {
  static func contains(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Whether `body` is empty or only whitespace; a body starting with anything else is
  /// answered from its first byte.
  static func isBlank(_ body: Data) -> Bool {
    guard let first = body.first else { return true }
    return contains(first) && body.allSatisfy(contains)
  }
}
