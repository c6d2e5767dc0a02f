/// A ``ReplayClient`` in a replay-only mode found no fixture file.
///
/// Its description says how to record the fixture.
public struct FixtureMissing: Error, Sendable, Hashable, CustomStringConvertible {
  /// The fixture file that does not exist.
  public let file: String
  /// The request that needed it, as `METHOD URL` with redacted query values.
  public let request: String
  /// The mode in use.
  public let mode: RecordMode

  /// Creates the error.
  public init(file: String, request: String, mode: RecordMode) {
    self.file = file
    self.request = request
    self.mode = mode
  }

  /// What is missing and the exact way to record it.
  public var description: String {
    """
    No fixture at \(file) for \(request) (mode \(mode)).
    To record it, run the test once against the real server with \
    \(RecordMode.environmentVariable)=missing, for example:
      \(RecordMode.environmentVariable)=missing swift test --filter <TestName>
    then commit the new file. (Or pass mode: .recordMissing to ReplayClient while recording.)
    """
  }
}
