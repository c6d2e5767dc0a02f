import Foundation

/// When a ``ReplayClient`` uses the network and writes its fixture.
///
/// Set in code (`ReplayClient(…, mode: .recordNew)`) or, winning over the code, with the
/// environment variable `ENDPOINT_RECORD_MODE`:
///
/// | value     | mode              | behaviour                                                    |
/// |-----------|-------------------|--------------------------------------------------------------|
/// | `replay`  | ``replayOnly``    | never uses the network; a missing fixture or request fails   |
/// | `missing` | ``recordMissing`` | records the whole fixture if its file does not exist, else replays |
/// | `new`     | ``recordNew``     | replays recorded requests, records new ones and keeps the rest |
/// | `all`     | ``reRecordAll``   | records everything again, replacing the file                |
///
/// Without either, the mode is ``replayOnly`` when the `CI` environment variable is set (so CI
/// never touches the network) and ``recordMissing`` otherwise.
///
/// ```sh
/// ENDPOINT_RECORD_MODE=all swift test --filter UserAPITests
/// ```
public enum RecordMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Replay only: never use the network (`replay`).
  case replayOnly = "replay"
  /// Record the whole fixture when its file is missing; otherwise replay only (`missing`).
  case recordMissing = "missing"
  /// Replay what is recorded, record requests that are not, keep the rest (`new`).
  case recordNew = "new"
  /// Record everything again and replace the file (`all`).
  case reRecordAll = "all"

  /// The environment variable that chooses the mode: `ENDPOINT_RECORD_MODE`.
  public static let environmentVariable = "ENDPOINT_RECORD_MODE"

  /// The mode to use: the environment variable's if set, else `code`'s, else ``replayOnly``
  /// under CI (`CI` set) and ``recordMissing`` elsewhere.
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidRecordMode`` when
  ///   the environment variable holds another value.
  public static func resolve(
    code: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(TestDoubleFailure) -> RecordMode {
    if let value = environment[environmentVariable], !value.isEmpty {
      guard let mode = RecordMode(rawValue: value.lowercased()) else {
        throw .invalidRecordMode(value)
      }
      return mode
    }
    if let code { return code }
    return isCI(environment) ? .replayOnly : .recordMissing
  }

  static func isCI(_ environment: [String: String]) -> Bool {
    guard let value = environment["CI"]?.lowercased() else { return false }
    return !["", "0", "false", "no"].contains(value)
  }

  /// `ENDPOINT_RECORD_MODE=value (what it does)`.
  public var description: String {
    let meaning =
      switch self {
      case .replayOnly: "replay only"
      case .recordMissing: "record when the fixture is missing"
      case .recordNew: "record new requests, keep the rest"
      case .reRecordAll: "record everything again"
      }
    return "\(RecordMode.environmentVariable)=\(rawValue) (\(meaning))"
  }
}
