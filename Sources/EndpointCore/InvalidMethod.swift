/// A request method was rejected because it is not an RFC 9110 token.
public struct InvalidMethod: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offending method.
  public let method: HTTPMethod

  /// Creates the error.
  public init(method: HTTPMethod) {
    self.method = method
  }

  /// A sentence naming the method.
  public var description: String {
    "Invalid HTTP method \(HTTPToken.quotedForMessage(method.rawValue)): a method must be a non-empty "
      + "RFC 9110 token"
  }
}
