/// A multipart boundary the caller chose cannot delimit the body.
///
/// ```swift
/// do {
///   _ = try RequestPayload.multipart(parts, boundary: "my boundary")
/// } catch {
///   print(error)
///   // Invalid multipart boundary "my boundary": … only letters, digits
///   // and '+_-.
/// }
/// ```
public struct InvalidMultipartBoundary: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why a boundary was refused.
  public enum Reason: Sendable, Hashable {
    /// Empty, or longer than the 70 characters RFC 2046 allows.
    case length
    /// A character other than an ASCII letter, a digit, `'`, `+`, `_`, `-` or `.`.
    case character
    /// The boundary occurs in a part, which it would end early.
    case occursInPart(index: Int)
  }

  /// The boundary refused.
  public let boundary: String
  /// Why it was refused.
  public let reason: Reason

  /// Creates the error.
  public init(boundary: String, reason: Reason) {
    self.boundary = boundary
    self.reason = reason
  }

  /// A sentence naming the boundary and the reason.
  public var description: String {
    let why =
      switch reason {
      case .length: "a boundary has 1 to 70 characters"
      case .character: "a boundary holds only letters, digits and '+_-."
      case .occursInPart(let index): "it occurs in part \(index), which it would end early"
      }
    return "Invalid multipart boundary \(HTTPToken.quotedForMessage(boundary)): \(why)"
  }
}
