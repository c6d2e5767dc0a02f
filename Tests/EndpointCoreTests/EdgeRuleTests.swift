import EndpointKernel
import EndpointPrimitives
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The rules every transport applies before a byte is sent and when a redirect is followed:
/// only RFC 9110 methods, only http(s), no control characters in fields, credentials kept to
/// their origin, and error messages of bounded size.
@Suite struct EdgeRuleTests {
  @Test(arguments: [
    "GET /x HTTP/1.1\r\nHost: x\r\n\r\nGET", "GET\r\nX-Injected: 1\r\nX-B:", "", "GET\0X",
    "GE T", "GET\t", "PÖST",
  ])
  func aMethodThatIsNotATokenIsNeverSendable(method: String) throws {
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: method), url: try #require(URL(string: "http://example.com/")))
    let error = try #require(throws: InvalidRequest.self) { try request.checkSendable() }
    #expect(error.kind == .method)
    #expect(error.method?.rawValue == method)
  }

  @Test(arguments: ["GET", "PURGE", "M-SEARCH", "patch"])
  func tokenMethodsAreSendable(method: String) throws {
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: method), url: try #require(URL(string: "https://a.test/x")))
    try request.checkSendable()
  }

  @Test(arguments: [
    "ftp://example.com/file.txt", "file:///etc/passwd", "data:text/plain,hello",
    "gopher://example.com/", "mailto:ada@example.com",
  ])
  func onlyHTTPAndHTTPSURLsAreSendable(url: String) throws {
    let request = HTTPRequest(method: .get, url: try #require(URL(string: url)))
    let error = try #require(throws: InvalidRequest.self) { try request.checkSendable() }
    #expect(error.kind == .url)
    #expect(error.reason.contains("only http and https"))
  }

  @Test(arguments: Array(0x01...0x1F).filter { $0 != 0x09 } + [0x00, 0x7F])
  func everyControlCharacterButTabIsRefusedInAValue(byte: Int) throws {
    let value = "a" + String(UnicodeScalar(UInt8(byte))) + "b"
    let error = try #require(throws: InvalidRequest.self) {
      try HTTPFields.Field(name: "X-Test", value: value)
    }
    #expect(error.kind == .headerField)
    #expect(error.reason.hasPrefix("it contains "), "expected a forbidden character: \(error)")
    #expect(error.reason.hasSuffix(", which a field value must not contain"))
  }

  @Test func aTabIsAllowedInAValue() throws {
    let field = try HTTPFields.Field(name: "X-Test", value: "a\tb")
    #expect(field.value == "a\tb")
  }

  @Test func errorMessagesStayShortForHugeInput() throws {
    let huge = String(repeating: "x", count: 5_000_000)
    let nameError = try #require(throws: InvalidRequest.self) {
      try HTTPFields.Field(name: huge + " ", value: "v")
    }
    #expect(nameError.kind == .headerField)
    #expect(nameError.description.count < 400)
    #expect(nameError.description.contains("5000001 bytes"))
    let valueError = try #require(throws: InvalidRequest.self) {
      try HTTPFields.Field(name: huge, value: "\r")
    }
    #expect(valueError.kind == .headerField)
    #expect(valueError.description.count < 400)
    let methodError = InvalidRequest.invalidMethod(HTTPMethod(rawValue: huge + "\r\n"))
    #expect(methodError.description.count < 400)
  }

  @Test func locationIsResolvedAgainstTheRequestURL() throws {
    let base = try #require(URL(string: "https://api.example.com/v1/items?page=2"))
    #expect(
      try RedirectRule.location("next", relativeTo: base, status: 302).absoluteString
        == "https://api.example.com/v1/next")
    #expect(
      try RedirectRule.location("/root", relativeTo: base, status: 301).absoluteString
        == "https://api.example.com/root")
    #expect(
      try RedirectRule.location("//cdn.example.com/a", relativeTo: base, status: 307)
        .absoluteString == "https://cdn.example.com/a")
    #expect(
      try RedirectRule.location("http://other.test/x", relativeTo: base, status: 308)
        .absoluteString == "http://other.test/x")
  }

  @Test func userInformationWrittenInALocationIsDropped() throws {
    let base = try #require(URL(string: "http://example.com/a"))
    let target = try RedirectRule.location(
      "http://chosen:secret@example.com/b", relativeTo: base, status: 302)
    #expect(target.absoluteString == "http://example.com/b")
    #expect(
      try RedirectRule.location("//u:p@cdn.example.com/c", relativeTo: base, status: 301)
        .absoluteString == "http://cdn.example.com/c")
    // The request's own user information stays with a relative Location (the same origin).
    let own = try #require(URL(string: "http://me:mine@example.com/a"))
    #expect(
      try RedirectRule.location("/next", relativeTo: own, status: 302).absoluteString
        == "http://me:mine@example.com/next")
  }

  @Test func aRedirectHasOneLocationOrNone() throws {
    let url = try #require(URL(string: "http://example.com/a"))
    #expect(try RedirectRule.location(in: [], status: 302, method: .get, url: url) == nil)
    #expect(
      try RedirectRule.location(in: ["/b", "/b"], status: 302, method: .get, url: url) == "/b")
    let error = try #require(throws: TransportFailure.self) {
      try RedirectRule.location(
        in: ["/b", "http://u:secret@evil.test/c"], status: 307, method: .get, url: url)
    }
    #expect(error.kind == .malformedResponse)
    #expect(error.description.contains("2 different Location fields"))
    #expect(!error.description.contains("secret"))
  }

  @Test(arguments: [
    "ftp://example.com/secret.txt", "file:///etc/passwd", "data:text/plain,hi", "",
  ])
  func aRedirectToAnythingButHTTPIsRefused(location: String) throws {
    let base = try #require(URL(string: "http://example.com/a"))
    let error = try #require(throws: InvalidRequest.self) {
      try RedirectRule.location(location, relativeTo: base, status: 302)
    }
    #expect(error.kind == .url)
    #expect(error.reason.contains("302"))
  }

  @Test func everyCredentialFieldIsDroppedAcrossOrigins() throws {
    let fields = try HTTPFields([
      ("Authorization", "Bearer a"), ("Cookie", "s=1"), ("Proxy-Authorization", "Basic b"),
      ("X-Api-Key", "k1"), ("Api-Key", "k2"), ("X-Auth-Token", "t"), ("X-Tenant-Key", "tk"),
      ("Accept", "*/*"),
    ])
    let hop = TestHop(
      method: .get, url: try #require(URL(string: "https://a.example.com/x")),
      headerFields: fields, body: .none, bodyIsReplayable: true)
    let other = try #require(URL(string: "https://b.example.com/x"))
    let next = try RedirectRule.next(
      after: hop, status: 302, location: other, credentialFieldNames: ["x-tenant-key"])
    #expect(next.headerFields.map(\.name) == ["Accept"])
    let policy = RedirectPolicy.followDefault.droppingAcrossOrigins(["X-Tenant-Key"])
    #expect(policy.credentialFieldNames == ["x-tenant-key"])
    let same = try RedirectRule.next(
      after: hop, status: 302, location: try #require(URL(string: "https://a.example.com/y")))
    #expect(same.headerFields.count == fields.count)
  }

  @Test func authorizationLimitedToOriginsSkipsOtherHosts() async throws {
    let client = ScriptedClient(status: 200)
    let api = try #require(URL(string: "https://api.example.com/v1/"))
    let auth = AuthorizationMiddleware.bearer("s3cr3t").limited(to: [api])
    let authorized = client.with(auth)
    _ = try await authorized.send(
      HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.com/other"))))
    _ = try await authorized.send(
      HTTPRequest(method: .get, url: try #require(URL(string: "https://evil.example.com/x"))))
    _ = try await authorized.send(
      HTTPRequest(method: .get, url: try #require(URL(string: "http://api.example.com/x"))))
    _ = try await authorized.send(
      HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.com:443/y"))))
    #expect(
      client.requests.map { $0.headerFields["Authorization"] } == [
        "Bearer s3cr3t", nil, nil, "Bearer s3cr3t",
      ])
    #expect(!auth.authorizes(try #require(URL(string: "https://api.example.com:8443/"))))
  }
}

/// URLs a path makes: the host stays a host, and the base's path is kept as it is.
@Suite struct URLEdgeTests {
  @Test(arguments: ["https://api.example.com  ---invalid", "https://api.exa mple.com/x"])
  func aPathThatBreaksTheHostIsRefusedAsAURL(path: String) throws {
    let base = try #require(URL(string: "https://example.com/"))
    let endpoint = Endpoint<Data>(
      .get, path: URLPath(stringLiteral: path), relativeTo: base, parser: .data)
    let error = try #require(throws: InvalidRequest.self) { try endpoint.request() }
    #expect(error.kind == .url)
    #expect(error.reason.contains("host"))
  }

  @Test func aBasePathOfOnlySlashesIsKept() throws {
    let base = try #require(URL(string: "https://example.com///"))
    #expect(
      try URLPath("foo").resolved(against: base).absoluteString == "https://example.com///foo")
    let doubled = try #require(URL(string: "https://example.com/v1//"))
    #expect(
      try URLPath("users").resolved(against: doubled).absoluteString
        == "https://example.com/v1//users")
  }

  @Test func ordinaryHostsAndIPLiteralsAreKept() throws {
    for text in ["https://a-b.example_1.com/x", "http://127.0.0.1:8080/", "http://[::1]:80/x"] {
      let url = try #require(URL(string: text))
      #expect(HTTPURL.unsendableReason(url) == nil, "\(text)")
    }
  }
}

/// Error descriptions stay a few hundred characters long whatever a server sent.
@Suite struct BoundedDescriptionTests {
  @Test func anUnexpectedResponseWithThousandsOfFieldsPrintsAFew() throws {
    var fields = HTTPFields()
    for index in 0..<3_000 { try fields.append("v\(index)", for: "X-Field-\(index)") }
    try fields.append(String(repeating: "h", count: 5_000_000), for: "X-Huge")
    let error = UnexpectedResponse(
      method: .get, url: try #require(URL(string: "https://a.test/x")),
      response: HTTPResponse(status: 500, headerFields: fields), body: Data(),
      accepted: .success)
    #expect(error.description.count < 10_000)
    #expect(error.description.contains("and 2971 more fields"))
  }

  @Test func aParsingFailureWithAHugeKeyPrintsAFewHundredCharacters() {
    let key = String(repeating: "k", count: 5_000_000)
    let error = ParsingFailure(
      type: "Item", path: "items[0].\(key)", reason: "no value for key \(key)", body: Data())
    #expect(error.description.count < 2_000)
  }
}

/// A `Void` endpoint for a path, in the core: no JSON, no `Accept`.
@Suite struct VoidPathEndpointTests {
  @Test func aVoidEndpointForAPathChecksTheStatusOnly() throws {
    let api = try #require(URL(string: "https://api.example.com/v1/"))
    let id = "a@b.com"
    let remove = Endpoint<Void>(.delete, path: "users/\(id)", relativeTo: api, parser: .void())
    let request = try remove.request()
    #expect(request.url.absoluteString == "https://api.example.com/v1/users/a@b.com")
    #expect(request.headerFields["Accept"] == nil)
    try remove.parse(HTTPResponse(status: 204), Data())
    #expect(throws: UnexpectedResponse.self) { try remove.parse(HTTPResponse(status: 404), Data()) }
  }
}

/// The Transport article's event type and its streaming endpoint, as written there.
private struct BuildEvent: Decodable, Sendable {
  var step: String
  var ok: Bool

  static func follow(build: Int) -> Endpoint<Data> {
    Endpoint(
      .get, path: "builds/\(build)/events", relativeTo: testURL("https://api.example.com/v1/"),
      parser: .data
    ).settingHeader("application/x-ndjson", for: .accept)
  }
}

/// Streaming an endpoint checks its status first.
@Suite struct StreamEndpointTests {
  @Test func aRejectedStatusNeverStreams() async throws {
    let client = ScriptedClient { _, _ in reply(404, body: "<html>not found</html>") }
    let endpoint = Endpoint<Data>(.get, url: testURL(), parser: .data)
    let error = await #expect(throws: UnexpectedResponse.self) {
      _ = try await client.stream(endpoint)
    }
    #expect(error?.status == 404)
    #expect(error?.body == Data("<html>not found</html>".utf8))
  }

  /// The Transport article's NDJSON sample, as written there.
  @Test func ndjsonLinesOfAnEndpointAreOneChain() async throws {
    let client = ScriptedClient { _, _ in
      reply(200, body: "{\"step\":\"fetch\",\"ok\":true}\n{\"step\":\"test\",\"ok\":false}\n")
    }

    var events: [String] = []
    let lines = try await client.stream(BuildEvent.follow(build: 7)).body.lines
    for try await line in lines {
      let event = try JSONDecoder().decode(BuildEvent.self, from: Data(line.utf8))
      events.append("\(event.step) \(event.ok)")
    }
    #expect(events == ["fetch true", "test false"])
    let sent = try #require(client.requests.first)
    #expect(sent.url.absoluteString == "https://api.example.com/v1/builds/7/events")
    #expect(sent.headerFields["Accept"] == "application/x-ndjson")
  }

  /// The article's error sample: a 503 never reaches the loop of lines.
  @Test func aRejectedStreamThrowsBeforeTheFirstLine() async throws {
    let client = ScriptedClient { _, _ in reply(503, body: "{\"step\":\"down\"}\n") }
    let follow = BuildEvent.follow(build: 7)
    var seen: [String] = []
    let error = await #expect(throws: UnexpectedResponse.self) {
      for try await line in try await client.stream(follow).body.lines {
        seen.append(line)
      }
    }
    #expect(seen.isEmpty)
    #expect(error?.status == 503)
    #expect(error?.body == Data("{\"step\":\"down\"}\n".utf8))
  }

  @Test func anAcceptedStatusStreamsTheBody() async throws {
    let client = ScriptedClient { _, _ in reply(200, body: "one\ntwo\n") }
    let (response, body) = try await client.stream(
      Endpoint<Data>(.get, url: testURL(), parser: .data))
    #expect(response.status == 200)
    var lines: [String] = []
    for try await line in body.lines { lines.append(line) }
    #expect(lines == ["one", "two"])
  }
}
