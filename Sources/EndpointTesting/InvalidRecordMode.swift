/// `ENDPOINT_RECORD_MODE` holds a value that is not a ``RecordMode``.
public struct InvalidRecordMode: Error, Sendable, Hashable, CustomStringConvertible {
  /// The value found.
  public let value: String

  /// Creates the error.
  public init(value: String) {
    self.value = value
  }

  /// A sentence listing the accepted values.
  public var description: String {
    return "\(RecordMode.environmentVariable)=\(value) is not a record mode; use one of: "
      + RecordMode.allCases.map(\.rawValue).joined(separator: ", ") + ". "
      + "replay: never use the network; missing: record the fixture if its file is missing; "
      + "new: record requests not in the fixture; all: record everything again."
  }
}
