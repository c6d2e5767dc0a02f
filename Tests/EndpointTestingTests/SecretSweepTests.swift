import EndpointPrimitives
import EndpointTestSupport
import Foundation
import Synchronization
import Testing

@testable import EndpointTesting

/// Every secret form the SDK promises to hide, each value holding the word `canary`, sent
/// through every sink of EndpointTesting.
enum SecretSweep {
  static let url =
    "https://alice:canary-userinfo@api.example.com/v1/items?token=canary-q1"
    + "&access_token=canary-q2&api_key=canary-q3&password=canary-q4&client_secret=canary-q5"
    + "&signature=canary-q6&X-Amz-Signature=canary-q7&X-Amz-Credential=canary-q8"
    + nestedQuery + "&page=2#access_token=canary-fragment&state=xyz"

  /// URLs carried in non-secret query values: percent-encoded (user information and a token
  /// inside), and as they are.
  static let nestedQuery =
    "&next=https%3A%2F%2Fdave%3Acanary-nested-pw%40login.example%2Fcb%3Faccess_token%3D"
    + "canary-nested-q%26lang%3Den&redirect_uri=https://login.example/cb?code=canary-raw-nested"

  /// The same, with a query parameter only the caller's ``redaction`` names.
  static let urlWithCustomName = url.replacingOccurrences(
    of: "&page=2", with: "&shopsig=canary-custom-query&page=2")

  /// Header forms: Basic, Bearer, a custom scheme, proxy credentials, cookies, API keys, and a
  /// name the caller adds.
  static let headers: [(String, String)] = [
    ("Authorization", "Shop-HMAC canary-custom-scheme"),
    ("Proxy-Authorization", "Basic Y2FuYXJ5LXByb3h5OnB3"),
    ("Cookie", "session=canary-cookie"),
    ("X-Api-Key", "canary-x-api-key"),
    ("Api-Key", "canary-api-key"),
    ("X-Auth-Token", "canary-auth-token"),
    ("X-Shop-Key", "canary-custom-header"),
    ("Accept", "application/json"),
    ("Content-Type", "application/json"),
  ]

  static let body =
    #"{"user":"ada","password":"canary-json-pw","pin":"canary-custom-key","#
    + #""nested":[{"client_secret":"canary-json-nested"}]}"#

  /// A request with every secret form; `custom` adds the names only the caller's
  /// ``redaction`` knows (the stub and recording clients know only the SDK's rule).
  static func request(custom: Bool = false) throws -> HTTPRequest {
    var fields = try HTTPFields(headers)
    if !custom { fields.remove("X-Shop-Key") }
    var body = body
    if !custom { body = body.replacingOccurrences(of: "canary-custom-key", with: "1234") }
    return HTTPRequest(
      method: .post, url: try #require(URL(string: custom ? urlWithCustomName : url)),
      headerFields: fields, body: HTTPBody(body))
  }

  /// The caller's own names added to the rule.
  static let redaction = Redaction.standard.adding(
    headerNames: ["X-Shop-Key"], queryParameterNames: ["shopsig"], jsonKeys: ["pin"])

  /// A server answering with cookies, a token in JSON and a redirect holding an implicit
  /// grant's token in its fragment.
  struct Server: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
      if let body = request.body { _ = try await body.collect(upTo: 1 << 20) }
      let fields = try HTTPFields([
        ("Set-Cookie", "sid=canary-set-cookie; Path=/; HttpOnly"),
        ("Location", "https://app.example.com/cb#access_token=canary-location&state=ok"),
        ("Link", #"<https://api.example.com/items?page=2&access_token=canary-link>; rel="next""#),
        ("Content-Type", "application/json"),
      ])
      return (
        HTTPResponse(status: 200, headerFields: fields, url: request.url),
        HTTPBody(
          #"{"id_token":"canary-response","user":"ada","#
            + #""next":"https://api.example.com/items?page=2&access_token=canary-next"}"#)
      )
    }
  }

  /// Fails as Foundation does: its text names the URL it failed on.
  struct ForeignError: Error, CustomStringConvertible {
    var description: String {
      "The request timed out. NSErrorFailingURLStringKey=\(SecretSweep.url) "
        + "Authorization: Bearer canary-foreign-bearer"
    }
  }

}

@Suite struct SecretSweepTests {
  @Test func aFixtureHoldsNoSecretOfAnyForm() async throws {
    try await withTemporaryFixture { file in
      let client = ReplayClient(
        fixture: file, recordingWith: SecretSweep.Server(), redaction: SecretSweep.redaction,
        environment: [:])
      _ = try await client.send(try SecretSweep.request(custom: true))
      let written = try String(contentsOf: file, encoding: .utf8)
      expectNoCanary(in: written, "fixture file")
      expectNoCanary(
        in: String(decoding: client.fixture.har(), as: UTF8.self), "HAR export")
      #expect(written.contains("ada") && written.contains("page=2"))
      #expect(written.contains("state=xyz"), "the fragment's other pairs are kept")
    }
  }

  @Test func aNestedURLsSecretsReachNeitherALogLineNorAFixture() async throws {
    let url = try #require(
      URL(string: "https://api.example.com/login?page=2" + SecretSweep.nestedQuery))
    try await withTemporaryFixture { file in
      let lines = LoggedLines()
      let client = ReplayClient(
        fixture: file, recordingWith: SecretSweep.Server(), environment: [:]
      ).with(LoggingMiddleware(includesHeaders: true) { lines.append($0.description) })
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 20)

      let logged = lines.value
      #expect(logged.count == 1)
      for line in logged {
        expectNoCanary(in: line, "log line")
        #expect(line.contains("login.example%2Fcb") && line.contains("lang%3Den"), "\(line)")
      }
      let written = try String(contentsOf: file, encoding: .utf8)
      expectNoCanary(in: written, "fixture file")
      #expect(written.contains("login.example%2Fcb") && written.contains("lang%3Den"))

      // The redacted fixture still answers the same request, offline.
      let replayer = ReplayClient(
        fixture: file, recordingWith: NoNetworkClient(), environment: ["CI": "true"])
      #expect(try await replayer.send(HTTPRequest(method: .get, url: url)).0.status == 200)
    }
  }

  @Test func recordedErrorsHoldNoSecret() async throws {
    try await withTemporaryFixture { file in
      let recorder = ReplayClient(
        fixture: file, recordingWith: FailingClient(), redaction: SecretSweep.redaction,
        environment: [:])
      await #expect(throws: SecretSweep.ForeignError.self) {
        try await recorder.send(try SecretSweep.request(custom: true))
      }
      expectNoCanary(in: try String(contentsOf: file, encoding: .utf8), "fixture error")
      let replayer = ReplayClient(
        fixture: file, recordingWith: NoNetworkClient(), redaction: SecretSweep.redaction,
        environment: ["CI": "true"])
      do {
        _ = try await replayer.send(try SecretSweep.request(custom: true))
        Issue.record("the recorded error was not replayed")
      } catch let error as TestDoubleFailure where error.kind == .recordedFailure {
        expectNoCanary(in: "\(error)", "TestDoubleFailure (recordedFailure)")
      }
    }
  }

  @Test func fixtureLookupErrorsShowNoSecret() async throws {
    try await withTemporaryFixture { fixture in
      let missing = ReplayClient(
        fixture: fixture, recordingWith: NoNetworkClient(),
        redaction: SecretSweep.redaction, environment: ["CI": "true"])
      do {
        _ = try await missing.send(try SecretSweep.request(custom: true))
        Issue.record("no fixtureMissing")
      } catch let error as TestDoubleFailure where error.kind == .fixtureMissing {
        expectNoCanary(in: "\(error)", "TestDoubleFailure (fixtureMissing)")
      }

      try await withTemporaryFixture { file in
        let recorder = ReplayClient(
          fixture: file, recordingWith: SecretSweep.Server(), environment: [:])
        _ = try await recorder.send(try request(.get, "https://api.example.com/v1/items?page=1"))
        let replayer = ReplayClient(
          fixture: file, recordingWith: NoNetworkClient(), redaction: SecretSweep.redaction,
          environment: ["CI": "true"])
        do {
          _ = try await replayer.send(try SecretSweep.request(custom: true))
          Issue.record("no requestNotInFixture")
        } catch let error as TestDoubleFailure where error.kind == .requestNotInFixture {
          expectNoCanary(in: "\(error)", "TestDoubleFailure (requestNotInFixture)")
        }
      }
    }
  }

  @Test func stubErrorsShowNoSecret() async throws {
    let stub = StubClient()
    // The rule names `next`: the check shows the request's value of it.
    stub.on(.post, "/v1/items").query(["next": "https://login.example/"]).header("X-Other", "1")
      .reply(status: 200)
    do {
      _ = try await stub.send(try SecretSweep.request())
      Issue.record("no noMatchingStub")
    } catch let error as TestDoubleFailure where error.kind == .noMatchingStub {
      expectNoCanary(in: "\(error)", "TestDoubleFailure (noMatchingStub)")
      expectNoCanary(in: error.suggestedRule ?? "", "TestDoubleFailure.suggestedRule")
      #expect(error.suggestedRule?.contains(#"stub.on(.post, "#) == true)
      #expect("\(error)".contains("got next=https://<redacted>@login.example"), "\(error)")
    }

    let failing = StubClient()
    failing.on(.post, "/v1/items").fail(with: SecretSweep.ForeignError())
    await #expect(throws: SecretSweep.ForeignError.self) {
      try await failing.send(try SecretSweep.request())
    }
    failing.on(.get, "/never").reply(status: 200)
    do {
      try failing.verify()
      Issue.record("no verificationFailed")
    } catch {
      expectNoCanary(in: "\(error)", "TestDoubleFailure (verificationFailed)")
      for recorded in failing.requests {
        expectNoCanary(in: "\(recorded)", "RecordedRequest")
      }
    }
  }

  @Test func recordedExchangesShowNoSecret() async throws {
    let recording = RecordingClient(wrapping: FailingClient())
    await #expect(throws: SecretSweep.ForeignError.self) {
      try await recording.send(try SecretSweep.request())
    }
    let exchange = try #require(recording.exchanges.first)
    expectNoCanary(in: "\(exchange)", "RecordedExchange")
    expectNoCanary(in: String(reflecting: exchange), "RecordedExchange reflecting")
  }
}

/// `dump(_:)` and mirrors of EndpointTesting's values show no secret and still show the request.
@Suite struct SecretSweepReflectionTests {
  /// Every public EndpointTesting value that carries a request, a URL, header fields or a body,
  /// each built with the secret forms, and text its mirror must still show. A new such type
  /// gets a line here.
  static func reflectedValues() async throws -> [(name: String, value: Any, shows: [String])] {
    // The SDK's rule alone: without the names only a caller's redaction knows.
    let request = try SecretSweep.request()
    let body = try #require(await request.body?.collect())
    let url = request.url
    let fields = request.headerFields
    var values: [(name: String, value: Any, shows: [String])] = [
      ("RecordedRequest (as a rule sees it)", RecordedRequest(request: request, body: body), []),
      (
        "Fixture.Request",
        Fixture.Request(method: .post, url: url, headerFields: fields, body: body), []
      ),
      (
        "Fixture.Response",
        Fixture.Response(
          status: 200, headerFields: fields, body: body,
          trailerFields: try HTTPFields([("X-Auth-Token", "canary-trailer"), ("X-Sum", "7")])),
        ["Accept", "application/json", "\"ada\"", "X-Sum"]
      ),
      (
        "Fixture.Interaction",
        Fixture.Interaction(
          request: Fixture.Request(method: .post, url: url, headerFields: fields, body: body),
          response: nil, error: SecretSweep.ForeignError().description),
        ["timed out"]
      ),
    ]

    values.append(
      (
        "StubResponse",
        StubResponse.text(
          "ada", headers: ["Authorization": "Bearer canary-stub-reply", "Accept": "text/csv"]),
        ["Authorization", "text/csv"]
      ))
    values.append(("StubClient", StubClient(baseURL: url), ["api.example.com", "page=2"]))

    let replay = ReplayClient(
      fixture: URL(fileURLWithPath: "/nonexistent/fixture.json"), recordingWith: NoNetworkClient(),
      redaction: SecretSweep.redaction, secrets: ["canary-registered-secret"], environment: [:])
    values.append(("ReplayClient", replay, ["x-shop-key", "1 registered, values hidden"]))

    let stub = StubClient()
    stub.on(.post, "/v1/items").header("X-Other", "1").reply(status: 200)
    do {
      _ = try await stub.send(request)
      Issue.record("no noMatchingStub")
    } catch let error as TestDoubleFailure where error.kind == .noMatchingStub {
      values.append(("TestDoubleFailure (noMatchingStub)", error, ["stub.on(.post"]))
    }
    let failing = StubClient()
    failing.on(.post, "/v1/items").fail(with: SecretSweep.ForeignError())
    await #expect(throws: SecretSweep.ForeignError.self) { try await failing.send(request) }
    values.append(("RecordedRequest", try #require(failing.requests.first), ["timed out"]))
    failing.on(.get, "/never").reply(status: 200)
    do {
      try failing.verify()
      Issue.record("no verificationFailed")
    } catch {
      values.append(("TestDoubleFailure (verificationFailed)", error, ["/never"]))
    }
    values += try await replayFailures(request)

    let recording = RecordingClient(wrapping: FailingClient())
    await #expect(throws: SecretSweep.ForeignError.self) { try await recording.send(request) }
    values.append(("RecordedExchange (failed)", try #require(recording.exchanges.first), []))
    let answered = RecordingClient(wrapping: SecretSweep.Server())
    let (_, responseBody) = try await answered.send(request)
    _ = try await responseBody.collect(upTo: 1 << 20)
    values.append(
      ("RecordedExchange", try #require(answered.exchanges.first), ["200", "Set-Cookie"]))
    return values
  }

  /// The failures of a ``ReplayClient`` that name a request (as the fixture records it: no
  /// header fields), each for `request`.
  static func replayFailures(
    _ request: HTTPRequest
  ) async throws -> [(name: String, value: Any, shows: [String])] {
    var values: [(name: String, value: Any, shows: [String])] = []
    let ci = ["CI": "true"]
    try await withTemporaryDirectory { directory in
      let missing = ReplayClient(
        fixture: directory.appending(path: "missing.json"), recordingWith: NoNetworkClient(),
        environment: ci)
      if let error = await expectFailure(
        .fixtureMissing, performing: { try await missing.send(request) })
      {
        values.append(("TestDoubleFailure (fixtureMissing)", error, ["replay"]))
      }

      let other = directory.appending(path: "other.json")
      let recorder = ReplayClient(
        fixture: other, recordingWith: SecretSweep.Server(), environment: [:])
      _ = try await recorder.send(
        try EndpointTestingTests.request(.get, "https://api.example.com/v1/items"))
      let replayer = ReplayClient(fixture: other, recordingWith: NoNetworkClient(), environment: ci)
      if let error = await expectFailure(
        .requestNotInFixture, performing: { try await replayer.send(request) })
      {
        values.append(("TestDoubleFailure (requestNotInFixture)", error, ["replay"]))
      }

      let failed = directory.appending(path: "failed.json")
      let failing = ReplayClient(fixture: failed, recordingWith: FailingClient(), environment: [:])
      _ = try? await failing.send(request)
      let failure = ReplayClient(fixture: failed, recordingWith: NoNetworkClient(), environment: ci)
      if let error = await expectFailure(
        .recordedFailure, performing: { try await failure.send(request) })
      {
        values.append(("TestDoubleFailure (recordedFailure)", error, ["timed out"]))
      }
    }
    return values
  }

  @Test func dumpsAndMirrorsShowNoSecretButTheRequest() async throws {
    for (name, value, shows) in try await Self.reflectedValues() {
      let text = reflectedText(value)
      expectNoCanary(in: text, "\(name) dump")
      // What was sent stays readable: the host, the plain query item, the plain field.
      // A replay failure names the request as the fixture records it, without its fields.
      let fieldsShown =
        !name.hasPrefix("TestDoubleFailure (")
        || ["TestDoubleFailure (noMatchingStub)", "TestDoubleFailure (verificationFailed)"]
          .contains(name)
      let sent =
        ["Fixture.Response", "ReplayClient", "StubResponse", "StubClient"].contains(name)
        ? [] : ["api.example.com", "page=2"] + (fieldsShown ? ["Accept"] : [])
      for marker in sent + shows {
        #expect(text.contains(marker), "\(name) dump lacks \(marker): \(text)")
      }
    }
  }
}

/// Log lines, kept in order.
private final class LoggedLines: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withVisibleLock { $0.append(line) } }
  var value: [String] { lines.withVisibleLock { $0 } }
}

/// A client that fails as Foundation does, naming the URL with its secrets.
private struct FailingClient: HTTPClient {
  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    throw SecretSweep.ForeignError()
  }
}
