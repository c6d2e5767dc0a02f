/// A timeout was rejected because it is zero or negative: no exchange could finish in it.
public struct InvalidTimeout: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offending timeout.
  public let timeout: Duration

  /// Creates the error.
  public init(timeout: Duration) {
    self.timeout = timeout
  }

  /// A sentence naming the timeout.
  public var description: String {
    "Invalid timeout \(timeout): a timeout must be greater than zero; use nil for the client's "
      + "default"
  }
}
