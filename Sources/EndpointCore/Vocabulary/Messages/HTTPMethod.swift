/// An HTTP request method, such as `GET` or `POST`.
///
/// The common methods are static members; any other token works as a string literal:
///
/// ```swift
/// let purge: HTTPMethod = "PURGE"
/// ```
///
/// A method that is not an RFC 9110 token is rejected when the request is resolved,
/// with an ``InvalidRequest`` (`.method`) error that names it.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The method's name exactly as it goes on the wire.
  public let rawValue: String

  /// Creates a method from its name; the name is used as given (methods are case-sensitive).
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates a method from a string literal.
  public init(stringLiteral value: String) {
    self.rawValue = value
  }

  /// The method's name.
  public var description: String { rawValue }

  /// Whether RFC 9110 calls the method idempotent (GET, HEAD, PUT, DELETE, OPTIONS, TRACE).
  public var isIdempotent: Bool {
    switch rawValue {
    case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
    default: false
    }
  }

  /// `GET`: transfer a current representation of the target resource.
  public static let get: HTTPMethod = "GET"
  /// `HEAD`: like `GET`, but the response has no body.
  public static let head: HTTPMethod = "HEAD"
  /// `POST`: process the enclosed representation.
  public static let post: HTTPMethod = "POST"
  /// `PUT`: replace the target resource with the enclosed representation.
  public static let put: HTTPMethod = "PUT"
  /// `PATCH`: apply partial modifications to the target resource.
  public static let patch: HTTPMethod = "PATCH"
  /// `DELETE`: remove the target resource.
  public static let delete: HTTPMethod = "DELETE"
  /// `OPTIONS`: describe the communication options for the target resource.
  public static let options: HTTPMethod = "OPTIONS"
  /// `TRACE`: perform a message loop-back test.
  public static let trace: HTTPMethod = "TRACE"
  /// `CONNECT`: establish a tunnel to the server.
  public static let connect: HTTPMethod = "CONNECT"
}
