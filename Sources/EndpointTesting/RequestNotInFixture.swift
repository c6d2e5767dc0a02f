/// A ``ReplayClient`` got a request that its fixture does not hold (or whose recorded answers
/// were all replayed already), in a mode that does not record.
///
/// Its description lists the nearest recorded requests and says how to record this one.
public struct RequestNotInFixture: Error, Sendable, Hashable, CustomStringConvertible {
  /// The fixture file.
  public let file: String
  /// The request, as `METHOD URL` with redacted query values.
  public let request: String
  /// Recorded requests with the same method and path, as `METHOD URL`.
  public let nearest: [String]
  /// How many identical requests the fixture holds, all already replayed (0 when none).
  public let alreadyReplayed: Int
  /// The mode in use.
  public let mode: RecordMode

  /// Creates the error.
  public init(
    file: String, request: String, nearest: [String], alreadyReplayed: Int, mode: RecordMode
  ) {
    self.file = file
    self.request = request
    self.nearest = nearest
    self.alreadyReplayed = alreadyReplayed
    self.mode = mode
  }

  /// What was not found, what is near, and the exact way to record it.
  public var description: String {
    var lines: [String] = []
    if alreadyReplayed > 0 {
      lines.append(
        "\(request) was recorded \(alreadyReplayed) time(s) in \(file) and every recording was "
          + "already replayed; the test makes it more often than when it was recorded "
          + "(mode \(mode))."
      )
    } else {
      lines.append("\(request) is not in the fixture \(file) (mode \(mode)).")
    }
    if !nearest.isEmpty {
      lines.append("Recorded requests with the same method and path:")
      lines += nearest.map { "  \($0)" }
    }
    lines.append(
      "To record it and keep the other recordings, run the test against the real server with "
        + "\(RecordMode.environmentVariable)=new; to record the whole fixture again, with "
        + "\(RecordMode.environmentVariable)=all, for example:"
    )
    lines.append("  \(RecordMode.environmentVariable)=new swift test --filter <TestName>")
    return lines.joined(separator: "\n")
  }
}
