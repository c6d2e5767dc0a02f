import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The spellings of the seed documents, each meaning what the documents mean.
@Suite struct SeedSpellingTests {
  struct NotText: Error {}

  @Test func statusListsAreArrayLiterals() {
    let parser = ResponseParser<Void>.void(expecting: [200, 204])
    #expect(parser.acceptedStatus == .codes(200, 204))
    #expect(parser.acceptedStatus.contains(204) && !parser.acceptedStatus.contains(201))
  }

  @Test func emptyCalledIsTheEmptyPayloadOrAnEmptyBodyOfAType() async throws {
    #expect(RequestPayload.empty().contentType == nil && RequestPayload.empty().body == nil)
    let typed = RequestPayload.empty(contentType: "application/json")
    #expect(typed.contentType == "application/json")
    #expect(try await typed.body?.collect() == Data())
  }

  @Test func unexpectedResponseDataIsTheBody() throws {
    let endpoint = Endpoint<String>(url: try makeURL("https://example.com/a"), parser: .string)
    #expect {
      try endpoint.parse(HTTPResponse(status: 500), bytes("broken"))
    } throws: { error in
      (error as? UnexpectedResponse)?.data == bytes("broken")
    }
  }

  @Test func closureParserGetsTheBodyOrNilAfterTheStatusCheck() throws {
    let endpoint = Endpoint<String>(.get, url: try makeURL("https://example.com/t")) { data in
      Result {
        guard let data, let text = String(data: data, encoding: .utf8) else { throw NotText() }
        return text
      }
    }
    #expect(try endpoint.parse(bytes("hi"), nil).get() == "hi")
    #expect(throws: NotText.self) { try endpoint.parse(nil, nil).get() }
    #expect(throws: NotText.self) { try endpoint.parse(HTTPResponse(status: 200), Data()) }
    #expect(throws: UnexpectedResponse.self) {
      try endpoint.parse(bytes("hi"), HTTPResponse(status: 404)).get()
    }
  }

  @Test func aliasANamesTheResource() {
    let same: Endpoint<Int>.A.Type = Int.self
    #expect(same == Int.self)
  }

  @Test func pathFromARuntimeStringReadsLikeALiteral() throws {
    let route = "users/octocat/repos?page=2"
    #expect(URLPath(route) == "users/octocat/repos?page=2")
    #expect(URLPath("a b/c").encoded == "a%20b/c")
  }

  @Test func collectWithoutALimitUsesTheDefault() async throws {
    #expect(try await HTTPBody("abc").collect() == bytes("abc"))
    let tooLong = HTTPBody(Chunks(), length: Int64(HTTPBody.defaultLimit) + 1)
    let failure = await #expect(throws: TransportFailure.self) { try await tooLong.collect() }
    #expect(failure?.kind == .responseTooLarge)
  }

  struct Chunks: AsyncSequence, Sendable {
    struct AsyncIterator: AsyncIteratorProtocol {
      mutating func next() async throws -> Data? { nil }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
  }
}

@Suite struct TypedHeaderEndpointTests {
  @Test func endpointHeadersTakeTypedNames() throws {
    let endpoint = Endpoint(
      .get, url: try makeURL("https://example.com/a"), headers: ["user-agent": "old"],
      parser: .string
    )
    .settingHeader("MyApp/2.1", for: .userAgent)
    .settingHeader("Bearer abc", for: .authorization)
    #expect(endpoint.headers == ["User-Agent": "MyApp/2.1", "Authorization": "Bearer abc"])
    #expect(endpoint.headers[.userAgent] == "MyApp/2.1")
    let request = try endpoint.removingHeader(.authorization).request()
    #expect(request.headerFields[.userAgent] == "MyApp/2.1")
    #expect(!request.headerFields.contains(.authorization))
  }
}
