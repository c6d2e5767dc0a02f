import Foundation

/// A test double was misused or could not answer: a ``StubClient`` found no rule for a request or
/// an invalid rule, ``StubClient/verify()`` found rules not used as expected, or a
/// ``ReplayClient`` found no fixture, a request not in it, a broken fixture, a secret it refused
/// to write or an unknown record mode. A replayed recording of an error thrown while recording
/// is one too.
///
/// ``kind`` says which; compare it with `==`:
///
/// ```swift
/// do {
///   _ = try await stub.call(rates)
/// } catch let error as TestDoubleFailure where error.kind == .noMatchingStub {
///   print(error.suggestedRule ?? "")
/// }
/// ```
///
/// Only the properties that belong to the kind are set; each says which kinds set it. The
/// description is a message that says what went wrong and how to fix it, with credentials
/// redacted. For ``Kind/noMatchingStub``, it shows the request, which parts of the nearest rules
/// matched and which did not, then a rule that would match:
///
/// ```text
/// No stub rule matches GET https://api.example.com/v1/rates?currency=EUR
///   Accept: application/json
///   Authorization: <redacted>
///   body: <empty>
/// Nearest rules:
///   #1 GET https://api.example.com/v1/rates?currency=USD
///      ✓ method ✓ origin ✓ path ✗ query: expected currency=USD, got currency=EUR
/// A rule that would match:
///   stub.on(.get, "/rates").query(["currency": "EUR"]).reply(status: 200)
/// ```
public struct TestDoubleFailure: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public let kind: Kind

  /// The method of the request concerned: ``Kind/noMatchingStub``, ``Kind/fixtureMissing``,
  /// ``Kind/requestNotInFixture`` and ``Kind/recordedFailure``.
  public let method: HTTPMethod?
  /// The URL of the request concerned, for the same kinds as ``method``. For the replay kinds it
  /// is the URL as the fixture records it, with the values the redaction names redacted.
  public let url: URL?
  /// The error underneath, when there is one: why a fixture file could not be read.
  public let underlyingError: (any Error)?

  /// ``Kind/noMatchingStub``: the request that matched nothing; its body, if any, is in memory.
  public let request: HTTPRequest?
  /// ``Kind/noMatchingStub``: the request's complete body.
  public let body: Data?
  /// ``Kind/noMatchingStub``: up to three rules, the closest first (fewest failed checks);
  /// empty for the other kinds.
  ///
  /// Each is the rule on one line (`#1 GET /rates`) and the result of each of its checks on
  /// the next: `✓ method ✓ path ✗ query: expected currency=USD, got currency=EUR`.
  public let nearestRules: [String]
  /// ``Kind/noMatchingStub``: Swift code for a rule that would match the request.
  public let suggestedRule: String?

  /// ``Kind/invalidStub`` and ``Kind/invalidFixture``: what is wrong with the rule or the
  /// fixture.
  public let reason: String?
  /// ``Kind/invalidStub``: the rule, as `#n METHOD pattern`, when the problem belongs to one.
  public let rule: String?

  /// ``Kind/verificationFailed``: one sentence per problem; empty for the other kinds.
  public let problems: [String]
  /// ``Kind/verificationFailed``: every request the stub received, for context; empty for the
  /// other kinds.
  public let requests: [RecordedRequest]

  /// The fixture file: ``Kind/fixtureMissing`` (the file that does not exist),
  /// ``Kind/requestNotInFixture``, ``Kind/secretInFixture`` (the file that was not written), and
  /// ``Kind/invalidFixture`` when the fixture came from a file.
  public let file: String?
  /// ``Kind/fixtureMissing`` and ``Kind/requestNotInFixture``: the record mode in use.
  public let mode: RecordMode?
  /// ``Kind/requestNotInFixture``: recorded requests with the same method and path, as
  /// `METHOD URL`; empty for the other kinds.
  public let nearestRecordings: [String]
  /// ``Kind/requestNotInFixture``: how many identical requests the fixture holds, all already
  /// replayed; 0 when none, and for the other kinds.
  public let alreadyReplayed: Int

  /// ``Kind/secretInFixture``: the secret's position in the `secrets` a ``ReplayClient`` was made with, from 1; 0
  /// when it is not a registered secret.
  public let secretNumber: Int?
  /// ``Kind/secretInFixture``: the form the secret was found in: `as written`,
  /// `percent-encoded`, `form-encoded`, `JSON-escaped` or `base64`.
  public let secretForm: String?
  /// ``Kind/secretInFixture``: where the secret was found: `interaction 2 request`,
  /// `interaction 2 response`, `interaction 2 error`.
  public let secretLocation: String?
  /// ``Kind/secretInFixture``: what was found, never the secret itself: `registered secret #2`,
  /// `a JSON Web Token`, `a Bearer or Basic credential`, `the value of a field redacted earlier
  /// in this recording`.
  public let secretDescription: String?

  /// ``Kind/invalidRecordMode``: the value `ENDPOINT_RECORD_MODE` holds.
  public let environmentValue: String?

  /// ``Kind/recordedFailure``: the description of the error the client threw while recording,
  /// which is this failure's description too.
  public let recordedError: String?

  /// Each factory sets the properties of its kind and leaves the rest empty.
  init(
    _ kind: Kind,
    method: HTTPMethod? = nil,
    url: URL? = nil,
    underlyingError: (any Error)? = nil,
    request: HTTPRequest? = nil,
    body: Data? = nil,
    nearestRules: [String] = [],
    suggestedRule: String? = nil,
    reason: String? = nil,
    rule: String? = nil,
    problems: [String] = [],
    requests: [RecordedRequest] = [],
    file: String? = nil,
    mode: RecordMode? = nil,
    nearestRecordings: [String] = [],
    alreadyReplayed: Int = 0,
    secretNumber: Int? = nil,
    secretForm: String? = nil,
    secretLocation: String? = nil,
    secretDescription: String? = nil,
    environmentValue: String? = nil,
    recordedError: String? = nil
  ) {
    self.kind = kind
    self.method = method
    self.url = url
    self.underlyingError = underlyingError
    self.request = request
    self.body = body
    self.nearestRules = nearestRules
    self.suggestedRule = suggestedRule
    self.reason = reason
    self.rule = rule
    self.problems = problems
    self.requests = requests
    self.file = file
    self.mode = mode
    self.nearestRecordings = nearestRecordings
    self.alreadyReplayed = alreadyReplayed
    self.secretNumber = secretNumber
    self.secretForm = secretForm
    self.secretLocation = secretLocation
    self.secretDescription = secretDescription
    self.environmentValue = environmentValue
    self.recordedError = recordedError
  }
}

extension TestDoubleFailure {
  /// What went wrong, as precisely as the kind allows, and how to fix it; credentials redacted.
  public var description: String {
    switch kind.code {
    case .noMatchingStub: noMatchingStubDescription
    case .invalidStub: invalidStubDescription
    case .verificationFailed: verificationFailedDescription
    case .fixtureMissing: fixtureMissingDescription
    case .requestNotInFixture: requestNotInFixtureDescription
    case .invalidFixture: invalidFixtureDescription
    case .secretInFixture: secretInFixtureDescription
    case .invalidRecordMode: invalidRecordModeDescription
    case .recordedFailure: recordedError ?? ""
    }
  }
}
