/// Any JSON value, typed: the home for bodies and parameters that have no fixed shape.
///
/// Build one from literals, read it with subscripts and accessors, send it as a body and decode
/// it from a response like any other `Codable` value:
///
/// ```swift
/// let body: JSONValue = [
///   "name": "Ada", "tags": ["admin", 42], "score": 9.5, "manager": nil,
/// ]
/// body["tags"]?[1]?.intValue        // 42
/// let endpoint = try Endpoint<JSONValue>(json: .post, url: usersURL, body: body)
/// ```
///
/// Numbers keep the integer/floating distinction where JSON allows it: integer literals and
/// numbers written without a fraction or exponent that fit an `Int` are ``int(_:)``, others
/// ``double(_:)``. Equality and hashing compare numbers by value, so `.int(1) == .double(1.0)`
/// (the encoder writes `1.0` as `1`, and a round trip stays equal).
///
/// Objects are dictionaries, so their keys have no order of their own. The default encoder of
/// `EndpointJSON` sorts keys, and ``description`` writes them sorted, so the same value always
/// gives the same bytes; a custom `JSONEncoder` needs `.sortedKeys` for the same guarantee.
/// Object keys are written exactly as given: key encoding and decoding strategies do not rewrite
/// them.
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number with no fractional part that fits an `Int`.
  case int(Int)
  /// Any other number.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])
}
