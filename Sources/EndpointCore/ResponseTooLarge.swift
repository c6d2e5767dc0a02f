/// A response body grew past the limit the caller set, and the transfer was stopped.
public struct ResponseTooLarge: Error, Hashable, Sendable, CustomStringConvertible {
  /// The largest body, in bytes, the caller accepted.
  public let limit: Int
  /// The declared `Content-Length` when the server sent one, otherwise the bytes received so far.
  public let received: Int64

  /// Creates the error.
  public init(limit: Int, received: Int64) {
    self.limit = limit
    self.received = received
  }

  /// A sentence with both sizes.
  public var description: String {
    "Response body too large: \(received) bytes exceeds the limit of \(limit) bytes; "
      + "raise the limit or stream the body"
  }
}
