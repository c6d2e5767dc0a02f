#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value could not be encoded as a JSON request body.
///
/// It names the type being encoded, where in it encoding failed and why:
///
/// ```swift
/// do {
///   _ = try RequestPayload.json(Reading(value: .nan))
/// } catch {
///   print(error)
///   // Could not encode Reading as JSON at value:
///   // Unable to encode Double.nan ...
/// }
/// ```
public struct EncodingFailure: Error, Sendable, CustomStringConvertible {
  /// The type that was being encoded, such as `"User"`.
  public let type: String
  /// Where in the value encoding failed, such as `"items[2].price"`, when known.
  public let path: String?
  /// What went wrong.
  public let reason: String
  /// The error the encoder or the value's `encode(to:)` threw.
  public let underlyingError: any Error

  /// Creates the error.
  public init(type: String, path: String? = nil, reason: String, underlyingError: any Error) {
    self.type = type
    self.path = path
    self.reason = reason
    self.underlyingError = underlyingError
  }

  /// A sentence with the type, the path and the reason.
  public var description: String {
    let location = path.map { " at \($0)" } ?? ""
    return "Could not encode \(type) as JSON\(location): \(reason)"
  }
}
