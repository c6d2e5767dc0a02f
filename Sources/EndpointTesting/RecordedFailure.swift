/// A replayed interaction whose client threw while it was recorded; the description is the
/// recorded error's.
public struct RecordedFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The description of the error thrown while recording.
  public let description: String

  /// Creates the error.
  public init(description: String) {
    self.description = description
  }
}
