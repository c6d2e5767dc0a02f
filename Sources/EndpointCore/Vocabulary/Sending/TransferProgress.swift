/// How far an upload or a download has come.
///
/// Uploads report request body bytes handed to the connection; downloads report response body
/// bytes received against the declared length. The transports count the bytes themselves, the
/// same way on every platform.
///
/// ```swift
/// try await client.download(request, to: file) { progress in
///   print(progress.fractionCompleted ?? 0)
/// }
/// ```
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
  /// Bytes transferred so far.
  public var completed: Int64
  /// The total number of bytes, when known.
  public var expected: Int64?

  /// Creates a progress value.
  public init(completed: Int64, expected: Int64?) {
    self.completed = completed
    self.expected = expected
  }

  /// `completed / expected` between 0 and 1, or `nil` when the total is unknown.
  public var fractionCompleted: Double? {
    guard let expected, expected > 0 else { return nil }
    return min(1, Double(completed) / Double(expected))
  }

  /// `completed of expected bytes`.
  public var description: String {
    "\(completed) of \(expected.map(String.init) ?? "?") bytes"
  }
}
