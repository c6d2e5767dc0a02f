#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Decoding and encoding with errors that say what failed, where, and show the body.
enum JSONCoding {
  /// Decodes `body`, turning any failure into a ``EndpointCore/ParsingFailure`` with the coding path.
  static func decode<Value: Decodable>(
    from body: Data,
    decoder: JSONDecoder
  ) throws(ParsingFailure) -> Value {
    do {
      return try decoder.decode(Value.self, from: body)
    } catch {
      // The type's name is worked out only on failure: it costs more than a small decode.
      throw failure(for: error, typeName: String(describing: Value.self), body: body)
    }
  }

  /// Encodes `value`, turning any failure into an ``EncodingFailure``.
  static func encode<Value: Encodable>(
    _ value: Value,
    encoder: JSONEncoder
  ) throws(EncodingFailure) -> Data {
    do {
      return try encoder.encode(value)
    } catch let error as EncodingError {
      let typeName = String(describing: Value.self)
      switch error {
      case .invalidValue(let invalid, let context):
        throw EncodingFailure(
          type: typeName,
          path: CodingPath.text(context.codingPath),
          reason: "invalid value \(invalid) (\(type(of: invalid))): \(context.debugDescription)",
          underlyingError: error
        )
      @unknown default:
        throw EncodingFailure(type: typeName, reason: "\(error)", underlyingError: error)
      }
    } catch {
      throw EncodingFailure(
        type: String(describing: Value.self),
        reason: "\(error)",
        underlyingError: error
      )
    }
  }

  static func failure(for error: any Error, typeName: String, body: Data) -> ParsingFailure {
    if body.isEmpty {
      return ParsingFailure(type: typeName, reason: "the body is empty; expected JSON", body: body)
    }
    guard let error = error as? DecodingError else {
      return ParsingFailure(type: typeName, reason: "\(error)", body: body)
    }
    switch error {
    case .keyNotFound(let key, let context):
      return ParsingFailure(
        type: typeName,
        path: CodingPath.text(context.codingPath + [key]),
        reason: "key not found: \(String(reflecting: key.stringValue))",
        body: body
      )
    case .typeMismatch(let expected, let context):
      return ParsingFailure(
        type: typeName,
        path: CodingPath.text(context.codingPath),
        reason: "type mismatch: expected \(expected)\(found(in: context))",
        body: body
      )
    case .valueNotFound(let expected, let context):
      return ParsingFailure(
        type: typeName,
        path: CodingPath.text(context.codingPath),
        reason: "value not found: expected \(expected), found null",
        body: body
      )
    case .dataCorrupted(let context):
      var reason = "corrupted data: \(context.debugDescription)"
      if let underlying = context.underlyingError { reason += " (\(underlying))" }
      return ParsingFailure(
        type: typeName,
        path: CodingPath.text(context.codingPath),
        reason: reason,
        body: body
      )
    @unknown default:
      return ParsingFailure(type: typeName, reason: "\(error)", body: body)
    }
  }

  /// `", found a string"` from the decoder's "Expected to decode Int but found a string
  /// instead.", or the whole description when it has another shape.
  private static func found(in context: DecodingError.Context) -> String {
    let text = context.debugDescription
    guard let range = text.firstRange(of: "but found ") else {
      return text.isEmpty ? "" : " (\(text))"
    }
    var rest = text[range.upperBound...]
    if rest.hasSuffix(" instead.") { rest = rest.dropLast(" instead.".count) }
    return ", found \(rest)"
  }
}
