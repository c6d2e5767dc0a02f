import EndpointKernel
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCore

/// Every secret form the SDK promises to hide, each value holding the word `canary`.
enum SecretForms {
  /// User information and every secret query parameter the docs name, plus an OAuth implicit
  /// grant's token in the fragment (as a `Location` carries it).
  static let url = testURL(
    "https://alice:canary-userinfo@api.example.com/v1/items?token=canary-q1"
      + "&access_token=canary-q2&api_key=canary-q3&password=canary-q4&client_secret=canary-q5"
      + "&signature=canary-q6&X-Amz-Signature=canary-q7&X-Amz-Credential=canary-q8"
      + "&X-Amz-Security-Token=canary-q9" + nestedQuery
      + "&page=2#access_token=canary-fragment&token_type=bearer")

  /// URLs carried in non-secret query values: percent-encoded (user information and a token
  /// inside), and as they are.
  static let nestedQuery =
    "&next=https%3A%2F%2Fdave%3Acanary-nested-pw%40login.example%2Fcb%3Faccess_token%3D"
    + "canary-nested-q%26lang%3Den&redirect_uri=https://login.example/cb?code=canary-raw-nested"

  /// A URL whose only credential is a token given as the user name.
  static let tokenAsUserURL = testURL("https://canary-user-token@api.example.com/repos")

  /// Every secret header form: Basic, Bearer and a custom scheme, proxy credentials, cookies,
  /// API keys and tokens.
  static func fields() throws -> HTTPFields {
    try HTTPFields([
      ("Authorization", "Bearer canary-bearer"),
      ("Proxy-Authorization", "Basic Y2FuYXJ5LXByb3h5"),
      ("Cookie", "session=canary-cookie"),
      ("Set-Cookie", "sid=canary-set-cookie; Path=/; HttpOnly"),
      ("X-Api-Key", "canary-x-api-key"),
      ("Api-Key", "canary-api-key"),
      ("X-Auth-Token", "canary-auth-token"),
      ("Location", "https://bob:canary-location-pw@example.com/cb?code=canary-code"),
      (
        "Link",
        #"<https://api.example.com/items?page=2&access_token=canary-link>; rel="next", "#
          + #"<https://carol:canary-link-pw@api.example.com/items?page=9>; rel="last""#
      ),
      ("Accept", "application/json"),
    ])
  }

  /// The text a foreign error (Foundation's `URLError`, a user's token provider) may print.
  struct ForeignError: Error, CustomStringConvertible {
    var description: String {
      "request failed NSErrorFailingURLStringKey=\(SecretForms.url.absoluteString) "
        + "Authorization: Bearer canary-foreign-bearer refresh_token=canary-foreign-refresh"
    }
  }

}

@Suite struct SecretSweepTests {
  /// Every public error of EndpointCore that a URL or foreign text reaches.
  static func coreErrors() throws -> [(String, any Error)] {
    let url = SecretForms.url
    let foreign = SecretForms.ForeignError()
    return [
      (
        "UnexpectedResponse",
        UnexpectedResponse(
          method: .get, url: url,
          response: HTTPResponse(status: 401, headerFields: try SecretForms.fields(), url: url),
          body: Data(#"{"access_token":"canary-body","password":"canary-pw"}"#.utf8))
      ),
      (
        "ParsingFailure",
        ParsingFailure(
          type: "Session", path: "token", reason: "no key at \(url.absoluteString)",
          body: Data("password=canary-form&user=ada".utf8))
      ),
      (
        "InvalidRequest",
        InvalidRequest.invalidURL(url.absoluteString, reason: "test", method: .get, url: url)
      ),
      (
        "TransportFailure",
        TransportFailure.tooManyRedirects(method: .get, limit: 1, chain: [url, url])
      ),
      (
        "UnrequestedProtocolSwitch",
        TransportFailure.unrequestedProtocolSwitch(method: .get, url: url, upgrade: "websocket")
      ),
      (
        "DeadlineExceeded",
        TransportFailure.deadlineExceeded(
          method: .get, url: url, limit: .seconds(1), elapsed: .seconds(2))
      ),
      (
        "RedirectBodyNotReplayable",
        TransportFailure.redirectBodyNotReplayable(
          method: .post, url: url, status: 307, location: url)
      ),
      (
        "ConnectTimeout",
        TransportFailure.connectTimeout(method: .get, url: url, limit: .seconds(1))
      ),
      (
        "IdleTimeout",
        TransportFailure.idleTimeout(
          method: .get, url: url, limit: .seconds(1), silence: .seconds(2))
      ),
      (
        "BodyLengthMismatch",
        TransportFailure.bodyLengthMismatch(method: .put, url: url, declared: 10, produced: 5)
      ),
      (
        "MalformedResponse",
        TransportFailure.malformedResponse(method: .get, url: url, reason: "no status line")
      ),
      ("ClientShutDown", TransportFailure.shutDown(method: .get, url: url, client: "StubClient")),
      (
        "InvalidContentLength",
        TransportFailure.invalidContentLength(method: .get, url: url, value: "1, 2")
      ),
      ("InvalidRequest (pageLink)", InvalidRequest.pageLink(url.absoluteString, reason: "test")),
      (
        "InvalidRequest (credentials)",
        InvalidRequest.tokenRefreshFailed(method: .get, url: url, underlyingError: foreign)
      ),
      (
        "TransportFailure (retryBudgetExhausted)",
        TransportFailure.retryBudgetExhausted(
          method: .get, url: url, attempts: 2, budget: .seconds(1), lastError: foreign)
      ),
      (
        "TooManyRedirects (token as user)",
        TransportFailure.tooManyRedirects(
          method: .get, limit: 0, chain: [SecretForms.tokenAsUserURL])
      ),
    ]
  }

  @Test func noCoreErrorDescriptionShowsASecret() throws {
    for (name, error) in try Self.coreErrors() {
      expectNoCanary(in: "\(error)", name)
      expectNoCanary(in: String(reflecting: error), "\(name) reflecting")
      expectNoCanary(in: error.localizedDescription, "\(name) localizedDescription")
    }
  }

  /// Every public EndpointCore value that carries a URL, header fields or a body, each built
  /// with the secret forms, and text its mirror must still show (so a mirror that shows nothing
  /// cannot pass). A new such type gets a line here.
  static func reflectedValues() async throws -> [(name: String, value: Any, shows: [String])] {
    let url = SecretForms.url
    let fields = try SecretForms.fields()
    let json = #"{"client_secret":"canary-json","user":"ada"}"#
    let form = RequestPayload.formURLEncoded([
      ("password", "canary-form"), ("user", "ada"),
      ("redirect_uri", "https://eve:canary-form-nested@login.example/cb?code=canary-form-code"),
    ])
    let now = ContinuousClock.now
    var values: [(name: String, value: Any, shows: [String])] = [
      ("HTTPFields", fields, ["Accept", "application/json", "Authorization"]),
      ("HTTPFields.Field", try HTTPFields.Field(name: "Cookie", value: "sid=canary"), ["Cookie"]),
      (
        "HTTPRequest",
        HTTPRequest(method: .post, url: url, headerFields: fields, body: HTTPBody(json)),
        ["POST", "api.example.com", "page=2", "application/json", "Authorization", "ada"]
      ),
      (
        "HTTPResponse", HTTPResponse(status: 401, headerFields: fields, url: url),
        ["401", "api.example.com", "page=2", "application/json", "Set-Cookie"]
      ),
      ("HTTPBody", HTTPBody(json), ["ada"]),
      ("HTTPBody.Lines", HTTPBody(json).lines, ["ada"]),
      ("HTTPBody.ServerSentEvents", HTTPBody(json).serverSentEvents, ["ada"]),
      ("RequestPayload", form, ["ada", "x-www-form-urlencoded"]),
      (
        "Endpoint",
        Endpoint<String>(
          .post, url: url,
          query: [
            URLQueryItem(name: "access_token", value: "canary-item"),
            URLQueryItem(name: "page", value: "3"),
            URLQueryItem(
              name: "next", value: "https://eve:canary-item-pw@login.example/?token=canary-item-q"),
          ],
          headers: ["Authorization": "Bearer canary-endpoint", "Accept": "text/csv"],
          payload: form, parser: .string),
        ["POST", "api.example.com", "page=2", "text/csv", "Authorization", "ada"]
      ),
      (
        "TransferMetrics",
        TransferMetrics(
          method: .get, url: url, finalURL: url, status: 200, startDate: Date(), start: now,
          end: now, error: SecretForms.ForeignError()),
        ["api.example.com", "page=2"]
      ),
      (
        "CachedResponse",
        CachedResponse(
          url: url, status: 200, headerFields: fields, body: Data(json.utf8),
          requestTime: Date(), responseTime: Date(),
          varyValues: ["authorization": "Bearer canary-vary", "accept": "text/csv"]),
        ["api.example.com", "page=2", "application/json", "ada", "text/csv"]
      ),
    ]
    for (name, error) in try coreErrors() {
      values.append((name, error, ["example.com"]))
    }
    // A page as a paginator's rule receives it.
    let pages = Recorder<[Paginator<String>.Page]>([])
    let paging = Paginator<String> { page in
      pages.update { $0.append(page) }
      return nil
    }
    let server = ScriptedClient { _, _ in
      reply(200, headers: [("Set-Cookie", "sid=canary-page-cookie"), ("X-Page", "1")], body: "ada")
    }
    for try await _ in server.pages(
      of: Endpoint<String>(.get, url: url, parser: .string), paginator: paging)
    {}
    let page = try #require(pages.value.first)
    values.append(("Paginator.Page", page, ["api.example.com", "page=2", "X-Page", "ada"]))
    // Middleware that keep a credential or a URL, alone and inside a client.
    let api = testURL("https://alice:canary-base@api.example.com/v1?api_key=canary-base-key")
    let middleware: [(String, any Middleware, [String])] = [
      (
        "AuthorizationMiddleware (fixed)",
        AuthorizationMiddleware.bearer("canary-fixed-token").limited(to: [api]),
        ["Authorization", "api.example.com"]
      ),
      (
        "AuthorizationMiddleware (tokens)",
        AuthorizationMiddleware(tokens: HeldTokenProvider(refreshToken: "canary-refresh")),
        ["Bearer", "HeldTokenProvider"]
      ),
      ("BaseURLMiddleware", BaseURLMiddleware(api), ["api.example.com", "/v1"]),
      ("DefaultHeadersMiddleware", DefaultHeadersMiddleware(fields), ["application/json"]),
    ]
    for (name, value, shows) in middleware {
      values.append((name, value, shows))
      values.append(("\(name) in a client", StubClient(status: 200).with(value), shows))
    }
    // A log entry as LoggingMiddleware makes it: headers and body previews included, the
    // exchange failed with an error that names the URL.
    let entries = Recorder<[HTTPLogEntry]>([])
    let client = ScriptedClient { _, _ in throw SecretForms.ForeignError() }
      .with(logging(into: entries, includesHeaders: true, bodyPreviewLimit: 256))
    await #expect(throws: SecretForms.ForeignError.self) {
      try await client.send(
        HTTPRequest(method: .post, url: url, headerFields: fields, body: HTTPBody(json)))
    }
    let entry = try #require(entries.value.first)
    values.append(("HTTPLogEntry", entry, ["POST", "api.example.com", "page=2", "Accept", "ada"]))
    return values
  }

  @Test func dumpsAndMirrorsShowNoSecretButTheRest() async throws {
    for (name, value, shows) in try await Self.reflectedValues() {
      let text = reflectedText(value)
      expectNoCanary(in: text, "\(name) dump")
      for marker in shows {
        #expect(text.contains(marker), "\(name) dump lacks \(marker): \(text)")
      }
    }
  }

  @Test func aLogEntryMadeByHandShowsNoSecretInItsMirror() throws {
    // Its description is the log line as given; its mirror applies the standard rule again.
    let entry = HTTPLogEntry(
      method: .get, url: SecretForms.url.absoluteString, status: 200,
      failure: SecretForms.ForeignError().description,
      requestHeaders: try SecretForms.fields(), responseHeaders: try SecretForms.fields(),
      requestBodyPreview: #"{"client_secret":"canary-json","user":"ada"}"#,
      responseBodyPreview: "password=canary-preview&user=ada")
    var text = ""
    for child in Mirror(reflecting: entry).children {
      text += "\(child.label ?? "-"): " + reflectedText(child.value) + "\n"
    }
    expectNoCanary(in: text, "HTTPLogEntry mirror")
    for marker in ["api.example.com", "page=2", "application/json", "user=ada", "\"ada\""] {
      #expect(text.contains(marker), "HTTPLogEntry mirror lacks \(marker): \(text)")
    }
  }

  @Test func aRequestsMirrorKeepsItsFieldsInOrderWithTheirNames() throws {
    let request = HTTPRequest(
      method: .get, url: SecretForms.url, headerFields: try SecretForms.fields())
    let children = Mirror(reflecting: request).children
    #expect(
      children.map(\.label) == ["method", "url", "headerFields", "body", "timeout", "options"])
    let fields = try #require(children.first { $0.label == "headerFields" }?.value as? HTTPFields)
    #expect(fields.map(\.name) == (try SecretForms.fields()).map(\.name))
    #expect(fields["Authorization"] == HTTPFields.redactedValue)
    #expect(fields["Accept"] == "application/json")
    let url = try #require(children.first { $0.label == "url" }?.value as? String)
    #expect(url == Redaction.redacted(SecretForms.url))
  }

  @Test func headerFieldsPrintWithoutTheirSecrets() throws {
    let fields = try SecretForms.fields()
    expectNoCanary(in: fields.description, "HTTPFields")
    expectNoCanary(in: "\(fields)", "HTTPFields interpolated")
    for field in fields {
      expectNoCanary(in: "\(field)", "HTTPFields.Field \(field.name)")
    }
    #expect(fields.description.contains("Accept: application/json"))
    #expect(fields.description.contains("Authorization: <redacted>"))
    // The values themselves stay readable in code.
    #expect(fields["Authorization"] == "Bearer canary-bearer")
  }

  @Test func requestsAndMetricsPrintWithoutTheirSecrets() throws {
    let request = HTTPRequest(
      method: .post, url: SecretForms.url, headerFields: try SecretForms.fields())
    expectNoCanary(in: "\(request)", "HTTPRequest")
    expectNoCanary(in: String(reflecting: request), "HTTPRequest reflecting")
    let now = ContinuousClock.now
    let metrics = TransferMetrics(
      method: .get, url: SecretForms.url, finalURL: SecretForms.url, status: 200,
      startDate: Date(), start: now, end: now, error: SecretForms.ForeignError())
    expectNoCanary(in: "\(metrics)", "TransferMetrics")
    #expect("\(metrics)".contains("page=2"))
  }

  @Test func logEntriesOfAFailureShowNoSecret() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let client = ScriptedClient { _, _ in throw SecretForms.ForeignError() }
      .with(logging(into: entries, includesHeaders: true))
    let request = HTTPRequest(
      method: .get, url: SecretForms.url, headerFields: try SecretForms.fields())
    await #expect(throws: SecretForms.ForeignError.self) { try await client.send(request) }
    let entry = try #require(entries.value.first)
    expectNoCanary(in: entry.description, "HTTPLogEntry")
    expectNoCanary(in: String(reflecting: entry), "HTTPLogEntry reflecting")
  }

  @Test func curlCommandsShowNoSecretOfAnyForm() throws {
    let request = HTTPRequest(
      method: .post, url: SecretForms.url, headerFields: try SecretForms.fields(),
      body: HTTPBody(#"{"client_secret":"canary-json","user":"ada"}"#))
    let command = request.curlCommand()
    expectNoCanary(in: command, "curl")
    #expect(command.contains("ada"))
  }

  @Test func spansShowNoSecret() async throws {
    let spans = Recorder<[SpanRecord]>([])
    let tracing = TraceContextMiddleware { span in spans.update { $0.append(span) } }
    let failing = ScriptedClient { _, _ in throw SecretForms.ForeignError() }.with(tracing)
    let request = HTTPRequest(
      method: .get, url: SecretForms.url, headerFields: try SecretForms.fields())
    await #expect(throws: SecretForms.ForeignError.self) { try await failing.send(request) }

    let succeeding = ScriptedClient { _, _ in (HTTPResponse(status: 200), HTTPBody("ok")) }
      .with(tracing)
    let (_, body) = try await succeeding.send(request)
    let now = ContinuousClock.now
    // The transport reports the request's own URL; the span keeps it redacted.
    tracing.observe(
      TransferMetrics(
        method: .get, url: SecretForms.url, finalURL: SecretForms.url, status: 200,
        startDate: Date(), start: now, end: now))
    _ = try await body.collect(upTo: 1024)

    #expect(spans.value.count == 2)
    for span in spans.value {
      expectNoCanary(in: span.url, "SpanRecord.url")
      expectNoCanary(in: span.failure ?? "", "SpanRecord.failure")
      expectNoCanary(in: String(reflecting: span), "SpanRecord reflecting")
    }
    let metrics = try #require(spans.value.last?.metrics)
    expectNoCanary(in: metrics.url.absoluteString, "SpanRecord.metrics.url")
    expectNoCanary(
      in: metrics.finalURL?.absoluteString ?? "", "SpanRecord.metrics.finalURL")
    #expect(metrics.url.host == "api.example.com")
  }

  @Test func aRefusedNextLinkKeepsNoSecretOfIt() async throws {
    // An unsendable scheme, and another origin.
    for target in [
      "ftp://alice:canary-pw@api.example.com/items?access_token=canary-t",
      "https://alice:canary-pw@other.example.com/items?api_key=canary-t",
    ] {
      let server = ScriptedClient { _, _ in
        reply(200, headers: [("Link", "<\(target)>; rel=\"next\"")], body: "a")
      }
      let endpoint = Endpoint<String>(.get, url: testURL(), parser: .string)
      do {
        for try await _ in server.pages(of: endpoint, paginator: .linkHeader(), maximumPages: 3) {}
        Issue.record("the link \(target) was followed")
      } catch let error as InvalidRequest where error.kind == .pageLink {
        let link = try #require(error.input)
        expectNoCanary(in: link, "InvalidRequest (pageLink).input")
        expectNoCanary(in: error.description, "InvalidRequest (pageLink)")
        expectNoCanary(in: String(reflecting: error), "InvalidRequest (pageLink) reflecting")
        #expect(link.contains("example.com"))
      }
    }
  }

  @Test func namesTheCallerAddsAreHiddenInLogsCurlCommandsAndSpans() async throws {
    let redaction = Redaction.standard.adding(names: ["shopsig", "X-Shop-Key", "pin"])
    let request = HTTPRequest(
      method: .post,
      url: testURL("https://api.example.com/orders?shopsig=canary-query&page=2"),
      headerFields: try HTTPFields([
        ("X-Shop-Key", "canary-header"), ("Content-Type", "application/json"),
      ]),
      body: HTTPBody(#"{"pin":"canary-json","user":"ada"}"#))
    expectNoCanary(in: request.curlCommand(redacting: redaction), "curl")

    let entries = Recorder<[HTTPLogEntry]>([])
    let spans = Recorder<[SpanRecord]>([])
    let failing = ScriptedClient { request, _ in
      throw TransportFailure.idleTimeout(
        method: request.method, url: request.url, limit: .seconds(1), silence: .seconds(2))
    }
    let client = failing.with(
      logging(
        into: entries, redaction: redaction, includesHeaders: true, bodyPreviewLimit: 256),
      TraceContextMiddleware(redaction: redaction) { span in spans.update { $0.append(span) } }
    )
    let failure = await #expect(throws: TransportFailure.self) { try await client.send(request) }
    #expect(failure?.kind == .idleTimeout)
    let entry = try #require(entries.value.first)
    expectNoCanary(in: entry.description, "HTTPLogEntry")
    expectNoCanary(in: entry.requestHeaders?.description ?? "", "HTTPLogEntry headers")
    expectNoCanary(in: entry.requestBodyPreview ?? "", "HTTPLogEntry body")
    let span = try #require(spans.value.first)
    expectNoCanary(in: span.url, "SpanRecord.url")
    expectNoCanary(in: span.failure ?? "", "SpanRecord.failure")
    #expect(span.url.contains("page=2"))
  }

  @Test func linkTargetsLoseTheirSecretsAndStillParse() throws {
    let fields = try SecretForms.fields()
    let redacted = Redaction.standard.apply(to: fields)
    let next = redacted.linkTargets(relation: "next")
    #expect(next.count == 1)
    #expect(next.first?.hasPrefix("https://api.example.com/items?page=2&") == true)
    for value in redacted.values(for: "Link") {
      expectNoCanary(in: value, "Link field")
    }
  }

  @Test func urlsInJSONStringsLoseTheirSecrets() throws {
    // A Graph-API style page: the next page's URL carries the access token.
    let text =
      #"{"data":[1],"paging":{"next":"https:\/\/graph.example.com\/v1\/me?access_token=canary-graph&after=abc","#
      + #""previous":"https://bob:canary-pw@graph.example.com/v1/me?before=xyz"}}"#
    let body = Data(text.utf8)
    let preview = Redaction.standard.preview(of: body, contentType: "application/json")
    expectNoCanary(in: preview, "JSON preview")
    #expect(preview.contains("after=abc") && preview.contains("before=xyz"))
    let error = UnexpectedResponse(
      method: .get, url: testURL(), response: HTTPResponse(status: 500), body: body)
    expectNoCanary(in: error.description, "UnexpectedResponse")
    let redacted = Redaction.standard.apply(toBody: body)
    // Still JSON, every other byte kept.
    let object = try JSONSerialization.jsonObject(with: redacted) as? [String: Any]
    let data = object?["data"] as? [Int]
    #expect(data == [1])
  }
}

/// A user's token provider that keeps its refresh token in a stored property.
private struct HeldTokenProvider: TokenProvider {
  let refreshToken: String

  func token() async throws -> String { "access" }

  func refreshToken(rejected: String) async throws -> String { refreshToken }
}
