#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension JSONValue {
  /// Converts an untyped JSON object — a `[String: Any]` body or parameter list — into a
  /// ``JSONValue``, checking every value at the call.
  ///
  /// `[String: Any]` cannot cross into a request: it is not `Sendable`, and a value JSON cannot
  /// hold would only fail once the body is encoded. Converting where the dictionary is made keeps
  /// the rest of the request typed:
  ///
  /// ```swift
  /// let body: [String: Any] = ["title": "Milk", "tags": ["home"], "count": 2]
  /// let json = try JSONValue(jsonObject: body)
  /// let endpoint = Endpoint<Todo>(json: .post, url: todosURL, body: json)
  /// ```
  ///
  /// Accepted: ``JSONValue``, `String`, `Substring`, `Bool`, any integer or floating-point number
  /// (finite), `nil` (as `null`), and arrays and string-keyed dictionaries of these.
  ///
  /// - Parameter object: the value to convert.
  /// - Throws: ``EncodingFailure`` naming the path of the first value JSON cannot hold.
  public init(jsonObject object: Any) throws(EncodingFailure) {
    self = try Self.converting(object, path: "")
  }

  private static func converting(_ value: Any, path: String) throws(EncodingFailure) -> JSONValue {
    switch value {
    case let json as JSONValue: return json
    case let string as String: return .string(string)
    case let string as Substring: return .string(String(string))
    case let bool as Bool: return .bool(bool)
    case let integer as any BinaryInteger:
      if let int = Int(exactly: integer) { return .int(int) }
      return .double(Double(integer))
    case let number as any BinaryFloatingPoint:
      let double = Double(number)
      guard double.isFinite else {
        throw failure(value, at: path, "\(double) is not a JSON number")
      }
      return .double(double)
    case let array as [Any]:
      var elements: [JSONValue] = []
      elements.reserveCapacity(array.count)
      for (index, element) in array.enumerated() {
        elements.append(try converting(element, path: "\(path)[\(index)]"))
      }
      return .array(elements)
    case let object as [String: Any]:
      var members: [String: JSONValue] = [:]
      members.reserveCapacity(object.count)
      for (key, member) in object {
        members[key] = try converting(member, path: path.isEmpty ? key : "\(path).\(key)")
      }
      return .object(members)
    default:
      let mirror = Mirror(reflecting: value)
      if mirror.displayStyle == .optional {
        guard let wrapped = mirror.children.first?.value else { return .null }
        return try converting(wrapped, path: path)
      }
      throw failure(value, at: path, "a \(type(of: value)) is not a JSON value")
    }
  }

  private static func failure(_ value: Any, at path: String, _ reason: String) -> EncodingFailure {
    EncodingFailure(
      type: "\(type(of: value))",
      path: path.isEmpty ? nil : path,
      reason: reason,
      underlyingError: NotJSON(reason: reason)
    )
  }
}

/// The underlying error of a value ``JSONValue/init(jsonObject:)`` cannot convert.
private struct NotJSON: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}
