import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A response with an accepted status could not be turned into the endpoint's resource.
///
/// Its description says what was expected, what failed (for JSON, the coding path) and shows a
/// bounded snippet of the body.
public struct ParsingFailure: Error, Sendable, CustomStringConvertible {
  /// The type the parser was producing, such as `"User"`.
  public let type: String
  /// Where in the body parsing failed, such as `"items[2].id"`, when known.
  public let path: String?
  /// What went wrong.
  public let reason: String
  /// The body that failed to parse.
  public let body: Data

  /// Creates the error.
  public init(type: String, path: String? = nil, reason: String, body: Data) {
    self.type = type
    self.path = path
    self.reason = reason
    self.body = body
  }

  /// A sentence with the type, the path, the reason and a body snippet, with secrets hidden by
  /// ``Redaction/standard`` (the values of secret JSON keys and form fields, credentials).
  public var description: String {
    let redaction = Redaction.standard
    let location = path.map { " at " + HTTPToken.cut($0, limit: 200) } ?? ""
    let reason = HTTPToken.cut(
      redaction.apply(toText: HTTPToken.cut(reason, limit: 4096)), limit: 500)
    return "Could not parse \(type)\(location): \(reason)\n  body: \(redaction.preview(of: body))"
  }
}

extension ParsingFailure: CustomReflectable {
  /// The stored properties as ``description`` shows them, for `dump(_:)`, LLDB's `po` and failed
  /// test expectations: the reason and a bounded preview of the body with their secrets hidden.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "type": type,
        "path": path as Any,
        "reason": Redaction.standard.apply(toText: reason),
        "body": Redaction.standard.preview(of: body),
      ],
      displayStyle: .struct)
  }
}
