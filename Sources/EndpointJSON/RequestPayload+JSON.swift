#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension RequestPayload {
  /// A JSON body: `value` encoded with `encoder`, sent as `application/json`.
  ///
  /// The default encoder sorts object keys, so the same value always gives the same bytes.
  ///
  /// ```swift
  /// let payload = try RequestPayload.json(NewTodo(title: "Write docs"))
  /// payload.contentType   // "application/json"
  /// ```
  /// - Parameters:
  ///   - value: the value to send.
  ///   - encoder: the encoder; a shared one with `.sortedKeys` by default.
  /// - Throws: ``EncodingFailure`` naming the type, the path that failed and why (for example a
  ///   `Double.nan`, which JSON cannot hold).
  public static func json<Value: Encodable>(
    _ value: Value,
    encoder: JSONEncoder = SharedCoders.encoder
  ) throws(EncodingFailure) -> RequestPayload {
    RequestPayload(
      contentType: "application/json",
      body: HTTPBody(try JSONCoding.encode(value, encoder: encoder))
    )
  }

  /// A JSON body encoded now, under the name of TinyNetworking's playground:
  /// `payload: try .json(encoding: item)` is ``json(_:encoder:)``.
  ///
  /// - Parameters:
  ///   - value: the value to send.
  ///   - encoder: the encoder; a shared one with `.sortedKeys` by default.
  /// - Throws: ``EncodingFailure``, as ``json(_:encoder:)`` does.
  public static func json<Value: Encodable>(
    encoding value: Value,
    encoder: JSONEncoder = SharedCoders.encoder
  ) throws(EncodingFailure) -> RequestPayload {
    try json(value, encoder: encoder)
  }

  /// Like ``json(_:encoder:)``, but an encoding failure is kept in the payload and thrown by
  /// `Endpoint.request()`, so endpoint initialisers need no `try`; ``NoJSONBody`` is no body.
  static func jsonBody(_ value: any Encodable, encoder: JSONEncoder) -> RequestPayload {
    if value is NoJSONBody { return .empty }
    do {
      return try json(value, encoder: encoder)
    } catch {
      return .failure(error)
    }
  }
}

/// The default `body:` of the JSON initialisers: no body at all, told apart from a value the
/// caller passed, so an optional holding `nil` is still sent as `null`.
@usableFromInline
struct NoJSONBody: Encodable, Sendable {
  @usableFromInline init() {}

  @usableFromInline func encode(to encoder: any Encoder) throws {}
}
