import Foundation

extension TestDoubleFailure {
  /// No fixture file for a request, in a mode that does not record; `url` is the recorded form.
  static func fixtureMissing(
    file: String, method: HTTPMethod, url: URL, mode: RecordMode
  ) -> TestDoubleFailure {
    TestDoubleFailure(.fixtureMissing, method: method, url: url, file: file, mode: mode)
  }

  /// A request the fixture does not hold, or holds only as recordings already replayed.
  static func requestNotInFixture(
    file: String, method: HTTPMethod, url: URL, nearest: [String], alreadyReplayed: Int,
    mode: RecordMode
  ) -> TestDoubleFailure {
    TestDoubleFailure(
      .requestNotInFixture, method: method, url: url, file: file, mode: mode,
      nearestRecordings: nearest, alreadyReplayed: alreadyReplayed)
  }

  /// A fixture that cannot be read; `file` is `nil` when it did not come from a file.
  static func invalidFixture(
    file: String?, reason: String, underlyingError: (any Error)? = nil
  ) -> TestDoubleFailure {
    TestDoubleFailure(
      .invalidFixture, underlyingError: underlyingError, reason: reason, file: file)
  }

  /// A fixture not written because a secret appears in it; `number` is 0 for a secret that
  /// was not registered.
  static func secretInFixture(
    file: String, number: Int, form: String, location: String, what: String
  ) -> TestDoubleFailure {
    TestDoubleFailure(
      .secretInFixture, file: file, secretNumber: number, secretForm: form,
      secretLocation: location, secretDescription: what)
  }

  /// An `ENDPOINT_RECORD_MODE` value that is not a mode.
  static func invalidRecordMode(_ value: String) -> TestDoubleFailure {
    TestDoubleFailure(.invalidRecordMode, environmentValue: value)
  }

  /// The error a client threw while the request was recorded, replayed.
  static func recordedFailure(
    _ recordedError: String, method: HTTPMethod, url: URL
  ) -> TestDoubleFailure {
    TestDoubleFailure(.recordedFailure, method: method, url: url, recordedError: recordedError)
  }

  /// How a registered secret is named in ``secretDescription``.
  static func registeredSecret(_ number: Int) -> String {
    "registered secret #\(number)"
  }

  /// The request as the fixture records it, `METHOD URL`.
  private var recordedRequestLine: String {
    "\(method.map(\.rawValue) ?? "") \(url?.absoluteString ?? "")"
  }

  private var modeText: String {
    mode.map { "\($0)" } ?? ""
  }

  /// What is missing and the exact way to record it.
  var fixtureMissingDescription: String {
    """
    No fixture at \(file ?? "") for \(recordedRequestLine) (mode \(modeText)).
    To record it, run the test once against the real server with \
    \(RecordMode.environmentVariable)=missing, for example:
      \(RecordMode.environmentVariable)=missing swift test --filter <TestName>
    then commit the new file. (Or pass mode: .recordMissing to ReplayClient while recording.)
    """
  }

  /// What was not found, what is near, and the exact way to record it.
  var requestNotInFixtureDescription: String {
    let file = file ?? ""
    var lines: [String] = []
    if alreadyReplayed > 0 {
      lines.append(
        "\(recordedRequestLine) was recorded \(alreadyReplayed) time(s) in \(file) and every "
          + "recording was already replayed; the test makes it more often than when it was "
          + "recorded (mode \(modeText))."
      )
    } else {
      lines.append("\(recordedRequestLine) is not in the fixture \(file) (mode \(modeText)).")
    }
    if !nearestRecordings.isEmpty {
      lines.append("Recorded requests with the same method and path:")
      lines += nearestRecordings.map { "  \($0)" }
    }
    lines.append(
      "To record it and keep the other recordings, run the test against the real server with "
        + "\(RecordMode.environmentVariable)=new; to record the whole fixture again, with "
        + "\(RecordMode.environmentVariable)=all, for example:"
    )
    lines.append("  \(RecordMode.environmentVariable)=new swift test --filter <TestName>")
    return lines.joined(separator: "\n")
  }

  /// A sentence naming the file and the problem.
  var invalidFixtureDescription: String {
    if let file { return "The fixture \(file) cannot be used: \(reason ?? "")" }
    return "The fixture cannot be used: \(reason ?? "")"
  }

  /// Where the secret was found and how to keep it out.
  var secretInFixtureDescription: String {
    "Refusing to write \(file ?? ""): \(secretDescription ?? "") appears \(secretForm ?? "") in "
      + "\(secretLocation ?? ""). "
      + "Redact the header, query parameter or JSON key that carries it "
      + "(Redaction.adding(headerNames:queryParameterNames:jsonKeys:))."
  }

  /// A sentence listing the accepted values.
  var invalidRecordModeDescription: String {
    "\(RecordMode.environmentVariable)=\(environmentValue ?? "") is not a record mode; use one "
      + "of: " + RecordMode.allCases.map(\.rawValue).joined(separator: ", ") + ". "
      + "replay: never use the network; missing: record the fixture if its file is missing; "
      + "new: record requests not in the fixture; all: record everything again."
  }
}
