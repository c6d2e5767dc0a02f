extension TestDoubleFailure {
  /// What went wrong. Compare with `==`:
  /// `catch let error as TestDoubleFailure where error.kind == .noMatchingStub`.
  ///
  /// A new failure of the test doubles becomes a new kind, so `catch` sites stay few.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    enum Code: String, Sendable {
      case noMatchingStub, invalidStub, verificationFailed
      case fixtureMissing, requestNotInFixture, invalidFixture, secretInFixture
      case invalidRecordMode, recordedFailure
    }

    let code: Code

    /// A ``StubClient`` received a request that no rule answers. ``TestDoubleFailure/request``,
    /// ``TestDoubleFailure/nearestRules`` and ``TestDoubleFailure/suggestedRule`` say which
    /// request, how close the rules came and a rule that would match.
    public static let noMatchingStub = Kind(code: .noMatchingStub)

    /// A stub rule was set up with something that cannot work, such as `times(0)` or a JSON body
    /// that is not JSON. Every call to the stub client and ``StubClient/verify()`` throw it, so
    /// the mistake cannot pass unnoticed. ``TestDoubleFailure/reason`` says what is wrong and
    /// ``TestDoubleFailure/rule`` which rule.
    public static let invalidStub = Kind(code: .invalidStub)

    /// ``StubClient/verify()`` found rules that were not used as expected, unmatched requests or
    /// invalid rules, listed in ``TestDoubleFailure/problems``. It depends on no test framework:
    /// thrown from a Swift Testing test or an XCTest, its description says what went wrong.
    public static let verificationFailed = Kind(code: .verificationFailed)

    /// A ``ReplayClient`` in a replay-only mode found no fixture file at
    /// ``TestDoubleFailure/file``. The description says how to record it.
    public static let fixtureMissing = Kind(code: .fixtureMissing)

    /// A ``ReplayClient`` got a request that its fixture does not hold (or whose recorded answers
    /// were all replayed already), in a mode that does not record. The description lists the
    /// nearest recorded requests and says how to record this one.
    public static let requestNotInFixture = Kind(code: .requestNotInFixture)

    /// A fixture file or HAR document could not be read; ``TestDoubleFailure/reason`` says why.
    public static let invalidFixture = Kind(code: .invalidFixture)

    /// A fixture was not written because a secret still appears in it. The secret itself is
    /// never shown: the description says what it is and where and in which form it was found.
    public static let secretInFixture = Kind(code: .secretInFixture)

    /// `ENDPOINT_RECORD_MODE` holds a value that is not a ``RecordMode``.
    public static let invalidRecordMode = Kind(code: .invalidRecordMode)

    /// A replayed interaction whose client threw while it was recorded: the transport failure
    /// the fixture holds, replayed. The description is the recorded error's.
    public static let recordedFailure = Kind(code: .recordedFailure)

    /// The kind's name, as spelled in code: `noMatchingStub`.
    public var description: String { code.rawValue }
  }
}
