import EndpointPrimitives
import Foundation
import Synchronization

/// Records real traffic to a fixture file and replays it, so a test runs against real responses
/// without the network.
///
/// The ``RecordMode`` says when it uses the network; by default it replays only under CI and
/// records a missing fixture elsewhere. Secrets are redacted before anything is written, by
/// ``EndpointCore/Redaction/standard`` and the names you add to it, and the fixture is checked
/// for secrets before it is written. Identical requests replay in the order they were recorded, so polling
/// and retries replay faithfully.
///
/// ```swift
/// @Test func userProfile() async throws {
///   let client = ReplayClient(
///     // Fixtures/<File>/userProfile.json beside the test file
///     fixture: ReplayClient.fixtureURL(),
///     recordingWith: URLSessionHTTPClient(),
///     redaction: .standard.adding(queryParameterNames: ["api_key"])
///   )
///   let user = try await client.call(GitHub.user("octocat"))
///   #expect(user.login == "octocat")
/// }
/// ```
///
/// Record once with `ENDPOINT_RECORD_MODE=missing swift test --filter userProfile`, commit the
/// fixture, and later runs replay it.
public struct ReplayClient: HTTPClient {
  /// The fixture file.
  public let fixtureURL: URL
  /// The client used to record.
  public let base: any HTTPClient
  /// The mode set in code, or `nil` to use the environment and CI defaults.
  public let requestedMode: RecordMode?
  /// What is redacted before writing, and the secrets that must not be written.
  let policy: FixtureRedaction
  /// Whether replay compares request bodies (JSON by meaning) besides method and URL.
  public let matchesBody: Bool
  /// The largest response body recorded, in bytes.
  public let bodyLimit: Int
  private let environment: [String: String]
  private let store = ReplayStore()

  /// Creates a replaying client.
  ///
  /// - Parameters:
  ///   - fixture: the fixture file; one per test, see ``fixtureURL(named:file:)``.
  ///   - base: the real client requests go to while recording.
  ///   - mode: the mode; `ENDPOINT_RECORD_MODE` wins when set. `nil`: replay only under CI,
  ///     record a missing fixture elsewhere.
  ///   - redaction: what is redacted in requests, responses and error texts before anything is
  ///     written: ``EndpointCore/Redaction/standard`` by default; add header fields, query
  ///     parameters (also form and multipart fields) and JSON keys with
  ///     ``EndpointCore/Redaction/adding(headerNames:queryParameterNames:jsonKeys:)``, keep a
  ///     name with ``EndpointCore/Redaction/allowing(_:)``. Replay matches redacted values
  ///     whatever their value.
  ///   - secrets: values that must never be written, such as the token the test records with;
  ///     a fixture that still holds one is refused
  ///     (``TestDoubleFailure/Kind/secretInFixture``). Empty strings are ignored.
  ///   - matchesBody: whether requests must have the recorded body to replay.
  ///   - bodyLimit: the largest response body recorded.
  ///   - environment: the environment to read the mode and `CI` from.
  public init(
    fixture: URL,
    recordingWith base: some HTTPClient,
    mode: RecordMode? = nil,
    redaction: Redaction = .standard,
    secrets: [String] = [],
    matchesBody: Bool = true,
    bodyLimit: Int = 32 * 1024 * 1024,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.fixtureURL = fixture
    self.base = base
    self.requestedMode = mode
    self.policy = FixtureRedaction(redaction: redaction, secrets: secrets)
    self.matchesBody = matchesBody
    self.bodyLimit = bodyLimit
    self.environment = environment
  }

  /// A fixture file for one test: `Fixtures/<test file name>/<test name>.json` beside the test
  /// file.
  ///
  /// - Parameters:
  ///   - name: the test's name; the calling function's by default.
  ///   - file: the test file; the caller's by default.
  public static func fixtureURL(named name: String = #function, file: String = #filePath) -> URL {
    let testFile = URL(fileURLWithPath: file)
    let safeName = String(
      name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
    ).trimmingCharacters(in: CharacterSet(charactersIn: "_"))
    return testFile.deletingLastPathComponent()
      .appendingPathComponent("Fixtures")
      .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
      .appendingPathComponent((safeName.isEmpty ? "fixture" : safeName) + ".json")
  }

  /// What is redacted before writing.
  public var redaction: Redaction { policy.redaction }

  /// The mode in use.
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidRecordMode`` when
  ///   `ENDPOINT_RECORD_MODE` holds an unknown value.
  public func mode() throws(TestDoubleFailure) -> RecordMode {
    try RecordMode.resolve(code: requestedMode, environment: environment)
  }

  /// The interactions this client would write now: kept recordings and new ones, redacted.
  var fixture: Fixture {
    Fixture(interactions: store.state.withVisibleLock { $0.written })
  }

  /// Replays `request` from the fixture, or records it, as the mode says.
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/fixtureMissing``,
  ///   ``TestDoubleFailure/Kind/requestNotInFixture``, ``TestDoubleFailure/Kind/invalidFixture``,
  ///   ``TestDoubleFailure/Kind/invalidRecordMode``, ``TestDoubleFailure/Kind/secretInFixture``
  ///   or ``TestDoubleFailure/Kind/recordedFailure`` for a recorded error, or the base client's
  ///   error while recording.
  public func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    let mode = try mode()
    try store.load(fixtureURL, mode: mode)
    let body = try await request.body?.collect(upTo: bodyLimit) ?? Data()
    var removed: [String] = []
    let recorded = policy.redact(
      Fixture.Request(
        method: request.method,
        url: request.url,
        headerFields: request.headerFields,
        body: body
      ),
      removed: &removed
    )
    store.remember(removed)

    let replay = store.state.withVisibleLock { state -> ReplayStore.Lookup in
      let hasFixture = state.fileExisted
      if mode == .reRecordAll || (mode == .recordMissing && !state.fileExisted) {
        return .record
      }
      var identical = 0
      for index in state.recorded.indices
      where FixtureMatching.matches(state.recorded[index].request, recorded, body: matchesBody) {
        if state.used[index] {
          identical += 1
          continue
        }
        state.used[index] = true
        return .replay(state.recorded[index])
      }
      if mode == .recordNew { return .record }
      guard hasFixture else { return .missing }
      let nearest = state.recorded.map(\.request).filter {
        $0.method == recorded.method && FixtureMatching.sameResource($0.url, recorded.url)
      }
      return .notFound(
        nearest: nearest.prefix(3).map { "\($0.method) \($0.url.absoluteString)" },
        identical: identical
      )
    }

    switch replay {
    case .replay(let interaction):
      guard let response = interaction.response else {
        throw TestDoubleFailure.recordedFailure(
          interaction.error ?? "an error", method: recorded.method, url: recorded.url)
      }
      var fields = response.headerFields
      if fields.contains("Content-Length") {
        // A redacted or re-indented JSON body is not the length the server announced.
        try fields.set("\(response.body.count)", for: "Content-Length")
      }
      return (
        HTTPResponse(status: response.status, headerFields: fields, url: request.url),
        HTTPBody.inMemory(response.body, trailerFields: response.trailerFields)
      )
    case .missing:
      throw TestDoubleFailure.fixtureMissing(
        file: fixtureURL.path, method: recorded.method, url: recorded.url, mode: mode)
    case .notFound(let nearest, let identical):
      throw TestDoubleFailure.requestNotInFixture(
        file: fixtureURL.path,
        method: recorded.method,
        url: recorded.url,
        nearest: nearest,
        alreadyReplayed: identical,
        mode: mode
      )
    case .record:
      return try await record(request, body: body, redacted: recorded, mode: mode)
    }
  }

  private func record(
    _ request: HTTPRequest,
    body: Data,
    redacted: Fixture.Request,
    mode: RecordMode
  ) async throws -> (HTTPResponse, HTTPBody) {
    var sent = request
    if let original = request.body {
      if let trailers = original.requestTrailers {
        // Trailers follow a chunked body: send the bytes read as one chunk, then the trailers.
        sent.body = HTTPBody(HTTPBody(body), trailerFields: trailers)
      } else {
        sent.body = HTTPBody(body)
      }
    }
    do {
      let (response, responseBody) = try await base.send(sent)
      let data = try await responseBody.collect(upTo: bodyLimit)
      let trailers = responseBody.trailerFields
      var removed: [String] = []
      let stored = policy.redact(
        Fixture.Response(
          status: response.status,
          headerFields: response.headerFields,
          body: data,
          trailerFields: trailers
        ),
        removed: &removed
      )
      store.remember(removed)
      try store.append(
        Fixture.Interaction(request: redacted, response: stored),
        to: fixtureURL,
        mode: mode,
        policy: policy
      )
      return (response, HTTPBody.inMemory(data, trailerFields: trailers))
    } catch let error as TestDoubleFailure where error.kind == .secretInFixture {
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      let text = policy.redact(error: String(describing: error), known: store.seen)
      try store.append(
        Fixture.Interaction(request: redacted, response: nil, error: text),
        to: fixtureURL,
        mode: mode,
        policy: policy
      )
      throw error
    }
  }
}

/// The fixture one ``ReplayClient`` (and its copies) reads and writes.
private final class ReplayStore: Sendable {
  enum Lookup {
    case replay(Fixture.Interaction)
    case record
    case missing
    case notFound(nearest: [String], identical: Int)
  }

  struct State: Sendable {
    var loaded = false
    var loadError: TestDoubleFailure?
    var fileExisted = false
    /// The interactions read from the file, and which were replayed.
    var recorded: [Fixture.Interaction] = []
    var used: [Bool] = []
    /// What the file holds after this run's recordings.
    var written: [Fixture.Interaction] = []
    /// Values redacted in this run, looked for before each write.
    var seen: [String] = []
  }

  let state = Mutex(State())

  func load(_ file: URL, mode: RecordMode) throws(TestDoubleFailure) {
    let error = state.withVisibleLock { state -> TestDoubleFailure? in
      if state.loaded { return state.loadError }
      state.loaded = true
      guard FileManager.default.fileExists(atPath: file.path) else { return nil }
      state.fileExisted = true
      do throws(TestDoubleFailure) {
        let fixture = try Fixture(contentsOf: file)
        state.recorded = fixture.interactions
        state.used = Array(repeating: false, count: fixture.interactions.count)
        state.written = mode == .reRecordAll ? [] : fixture.interactions
        return nil
      } catch {
        // Re-recording replaces a broken file; every other mode reports it.
        if mode == .reRecordAll { return nil }
        state.loadError = error
        return error
      }
    }
    if let error { throw error }
  }

  /// Values redacted so far in this recording, which must not appear elsewhere.
  var seen: [String] {
    state.withVisibleLock { $0.seen }
  }

  func remember(_ values: [String]) {
    let distinctive = values.filter(FixtureRedaction.isDistinctive)
    guard !distinctive.isEmpty else { return }
    state.withVisibleLock { $0.seen += distinctive }
  }

  /// Adds `interaction` to the file: under the directory's lock, to what the file holds now
  /// (other clients may have recorded to it since it was read), written whole and renamed
  /// into place.
  func append(
    _ interaction: Fixture.Interaction,
    to file: URL,
    mode: RecordMode,
    policy: FixtureRedaction
  ) throws {
    try state.withVisibleLock { state in
      try FixtureFile.withLock(file) {
        var base: [Fixture.Interaction] = []
        let startsOver = mode == .reRecordAll && !FixtureFile.wasRestarted(file)
        if !startsOver, FileManager.default.fileExists(atPath: file.path) {
          base = try Fixture(contentsOf: file).interactions
        }
        let fixture = Fixture(interactions: base + [interaction])
        try policy.check(fixture, file: file.path, seen: state.seen)
        try FixtureFile.replace(file, with: fixture.encoded())
        if startsOver { FixtureFile.markRestarted(file) }
        state.written = fixture.interactions
      }
    }
  }
}
