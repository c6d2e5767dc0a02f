import EndpointCore
import EndpointPrimitives
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct EndpointTests {
  private struct User: Equatable {
    let name: String
  }

  private static let userParser = ResponseParser<User>(accept: "text/plain") { _, body in
    let name = String(decoding: body, as: UTF8.self)
    guard !name.isEmpty else {
      throw ParsingFailure(type: "User", reason: "no name", body: body)
    }
    return User(name: name)
  }

  @Test func memberwiseFormOfTheSeedsStillWorks() throws {
    let url = try makeURL("https://a.example/users/1")
    let endpoint = Endpoint(url: url, parser: Self.userParser)
    #expect(endpoint.method == .get)
    #expect(endpoint.url == url)
    #expect(endpoint.payload.body == nil)
    let post = Endpoint(
      url: url, method: .post, payload: .text("hi"), parser: ResponseParser<Void>.void())
    #expect(post.method == .post)
    #expect(try post.request().body?.data == bytes("hi"))
  }

  @Test func endpointIsAPlainValueYouCanInspect() throws {
    let endpoint = Endpoint(
      .put, url: try makeURL("https://a.example/items/1"),
      query: [URLQueryItem(name: "dry-run", value: "1")], headers: ["X-Trace": "abc"],
      payload: .text("body"), timeout: .seconds(5), parser: Self.userParser)
    #expect(endpoint.method == .put)
    #expect(endpoint.url.absoluteString == "https://a.example/items/1")
    #expect(endpoint.query == [URLQueryItem(name: "dry-run", value: "1")])
    #expect(endpoint.headers == ["X-Trace": "abc"])
    #expect(endpoint.payload.contentType == "text/plain; charset=utf-8")
    #expect(endpoint.timeout == .seconds(5))
    #expect(endpoint.parser.accept == "text/plain")

    let request = try endpoint.request()
    #expect(request.method == .put)
    #expect(request.url.absoluteString == "https://a.example/items/1?dry-run=1")
    #expect(
      request.headerFields.map(\.description) == [
        "X-Trace: abc", "Content-Type: text/plain; charset=utf-8", "Accept: text/plain",
      ])
    #expect(request.body?.data == bytes("body"))
    #expect(request.timeout == .seconds(5))
  }

  @Test func pathEndpointResolvesAgainstTheBase() throws {
    let id = "a/b"
    let endpoint = Endpoint(
      .get, path: "users/\(id)", relativeTo: try makeURL("https://a.example/v1/"),
      parser: Self.userParser)
    #expect(endpoint.url.absoluteString == "https://a.example/v1/users/a%2Fb")
  }

  @Test func unresolvablePathIsReportedByRequest() throws {
    let base = try makeURL("file:///tmp")
    var endpoint = Endpoint(.get, path: "x", relativeTo: base, parser: Self.userParser)
    expectInvalidRequest(.url) { try endpoint.request() }
    let mapped = endpoint.map(\.name).settingHeader("1", for: "X")
    expectInvalidRequest(.url) { try mapped.request() }
    endpoint.url = try makeURL("https://a.example/x")
    #expect(try endpoint.request().url.absoluteString == "https://a.example/x")
  }

  @Test func voidEndpointChecksTheStatusOnly() throws {
    let endpoint = Endpoint(
      .delete, url: try makeURL("https://a.example/x"), parser: .void(expecting: .codes(204)))
    #expect(endpoint.parser.acceptedStatus == .codes(204))
    try endpoint.parse(try response(204), bytes("ignored"))
    #expect(throws: UnexpectedResponse.self) { try endpoint.parse(try response(200), Data()) }
  }

  // MARK: Headers

  @Test func contentTypeAndAcceptComeFromPayloadAndParser() throws {
    let endpoint = Endpoint(
      .post, url: try makeURL("https://a.example"), payload: .data(Data(), contentType: "a/b"),
      parser: Self.userParser)
    let fields = try endpoint.request().headerFields
    #expect(fields["Content-Type"] == "a/b")
    #expect(fields["Accept"] == "text/plain")
  }

  @Test func userHeadersWinOverPayloadAndParserInAnyCase() throws {
    let endpoint = Endpoint(
      .post, url: try makeURL("https://a.example"),
      headers: ["content-type": "application/xml", "ACCEPT": "application/xml"],
      payload: .text("<a/>"), parser: Self.userParser)
    let fields = try endpoint.request().headerFields
    #expect(fields.values(for: "Content-Type") == ["application/xml"])
    #expect(fields.values(for: "Accept") == ["application/xml"])
  }

  @Test func noContentTypeOrAcceptWhenNothingNamesThem() throws {
    let fields = try Endpoint(.get, url: try makeURL("https://a.example"), parser: .void())
      .request().headerFields
    #expect(fields.isEmpty)
  }

  @Test func headersGoOnTheWireOrderedByName() throws {
    let endpoint = Endpoint(
      .get, url: try makeURL("https://a.example"), headers: ["b": "2", "a": "1", "C": "3"],
      parser: .void())
    #expect(try endpoint.request().headerFields.map(\.name) == ["C", "a", "b"])
  }

  @Test func invalidHeaderMakesRequestThrowNamingIt() throws {
    let injected = Endpoint(
      .get, url: try makeURL("https://a.example"), headers: ["X": "a\r\nEvil: 1"], parser: .void())
    let error = try #require(throws: InvalidRequest.self) { try injected.request() }
    #expect(error.kind == .headerField)
    #expect(error.fieldName == "X")
    #expect(error.reason == "it contains CR, which a field value must not contain")

    let badName = Endpoint(
      .get, url: try makeURL("https://a.example"), headers: ["Bad Name": "1"], parser: .void())
    let badNameError = expectInvalidRequest(.headerField) { try badName.request() }
    #expect(badNameError?.fieldName == "Bad Name")

    let badContentType = Endpoint(
      .post, url: try makeURL("https://a.example"),
      payload: .data(Data(), contentType: "a/b\nX: 1"), parser: .void())
    expectInvalidRequest(.headerField) { try badContentType.request() }
  }

  @Test func settingHeaderReplacesAnyCaseAndRemovingHeaderRemovesAnyCase() throws {
    let endpoint = Endpoint(
      .get, url: try makeURL("https://a.example"), headers: ["accept": "a", "X": "1"],
      parser: .void())
    let set = endpoint.settingHeader("b", for: "Accept")
    #expect(set.headers == ["X": "1", "Accept": "b"], "in the place of the field it replaces")
    #expect(try set.request().headerFields.values(for: "accept") == ["b"])
    let removed = endpoint.removingHeader("ACCEPT")
    #expect(removed.headers == ["X": "1"])
    #expect(endpoint.headers == ["X": "1", "accept": "a"], "the original is unchanged")
  }

  @Test func headersKeepTheOrderGivenAndRepeatedNames() throws {
    var endpoint = Endpoint(.get, url: try makeURL("https://a.example"), parser: .string)
    endpoint.headers = ["X-Trace": "a", .accept: "text/csv", "x-trace": "b"]
    let fields = try endpoint.request().headerFields
    #expect(fields.map(\.name) == ["X-Trace", "Accept", "x-trace"])
    #expect(fields.values(for: "X-Trace") == ["a", "b"])
  }

  @Test func anInvalidHeaderSetLaterIsReportedByRequest() throws {
    let endpoint = Endpoint(.get, url: try makeURL("https://a.example"), parser: .string)
      .settingHeader("a\nb", for: "X")
      .settingHeader("fine", for: "Y")
    let error = expectInvalidRequest(.headerField) { try endpoint.request() }
    #expect(error?.fieldName == "X")
    #expect(error?.reason == "it contains LF, which a field value must not contain")
    expectInvalidRequest(.headerField) { try endpoint.map { $0 + "!" }.request() }
  }

  @Test func timeoutIsCarriedToTheRequest() throws {
    let endpoint = Endpoint(.get, url: try makeURL("https://a.example"), parser: .void())
    #expect(try endpoint.request().timeout == nil)
    #expect(try endpoint.timeout(.milliseconds(250)).request().timeout == .milliseconds(250))
    #expect(endpoint.timeout(.seconds(1)).timeout(nil).timeout == nil)
  }

  @Test(arguments: [Duration.zero, .seconds(-1), .nanoseconds(-1)])
  func nonPositiveTimeoutMakesRequestThrowNamingIt(_ timeout: Duration) throws {
    let endpoint = Endpoint(
      .get, url: try makeURL("https://a.example"), timeout: timeout, parser: .void())
    let error = try #require(throws: InvalidRequest.self) { try endpoint.request() }
    #expect(error.kind == .timeout)
    #expect(error.timeout == timeout)
    #expect(error.description.contains("greater than zero"))
  }

  @Test func acceptingChangesTheParserStatuses() throws {
    let endpoint = Endpoint(url: try makeURL("https://a.example"), parser: Self.userParser)
      .accepting(.codes(404))
    #expect(try endpoint.parse(try response(404), bytes("ghost")) == User(name: "ghost"))
    #expect(throws: UnexpectedResponse.self) { try endpoint.parse(try response(200), bytes("x")) }
  }

  // MARK: Parsing

  @Test func parseSucceedsOnValidDataWithNoNetwork() throws {
    let endpoint = Endpoint(url: try makeURL("https://a.example"), parser: Self.userParser)
    #expect(try endpoint.parse(try response(200), bytes("ada")) == User(name: "ada"))
  }

  @Test func parseFailsOnMissingData() throws {
    let endpoint = Endpoint(url: try makeURL("https://a.example"), parser: Self.userParser)
    let error = try #require(throws: ParsingFailure.self) {
      try endpoint.parse(try response(200), Data())
    }
    #expect(error.reason == "no name")
  }

  @Test func parseFailsOnInvalidData() throws {
    let endpoint = Endpoint(url: try makeURL("https://a.example"), parser: .string)
    #expect(throws: ParsingFailure.self) { try endpoint.parse(try response(200), Data([0xFF])) }
  }

  @Test func parseValidatesTheStatusBeforeTheParserRuns() throws {
    let ran = EventLog()
    let parser = ResponseParser<Int> { _, _ in
      ran.record("parser")
      return 1
    }
    let endpoint = Endpoint(
      .get, url: try makeURL("https://a.example/x"), query: [URLQueryItem(name: "q", value: "1")],
      parser: parser)
    let error = try #require(throws: UnexpectedResponse.self) {
      try endpoint.parse(try response(500, [("Retry-After", "3")]), bytes("oops"))
    }
    #expect(ran.events.isEmpty)
    #expect(error.status == 500)
    #expect(error.method == .get)
    #expect(error.url.absoluteString == "https://a.example/x?q=1", "the URL that was requested")
    #expect(error.headerFields["retry-after"] == "3")
    #expect(error.body == bytes("oops"))
    #expect(error.accepted == .success)
    #expect(try endpoint.parse(try response(200), Data()) == 1)
    #expect(ran.events == ["parser"])
  }

  @Test func parseReportsTheResponseURLWhenThereIsOne() throws {
    let endpoint = Endpoint(.get, url: try makeURL("https://a.example/x"), parser: .void())
    let redirected = try makeURL("https://b.example/y")
    let error = try #require(throws: UnexpectedResponse.self) {
      try endpoint.parse(try response(404, url: redirected), Data())
    }
    #expect(error.url == redirected)
  }
}
