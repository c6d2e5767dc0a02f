import EndpointCore
import EndpointKernel
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct EndpointTransformTests {
  private func base() throws -> Endpoint<String> {
    Endpoint(
      .post, url: try makeURL("https://a.example/x"), query: [.init(name: "q", value: "1")],
      headers: ["X": "1"], payload: .text("t"), timeout: .seconds(2),
      parser: ResponseParser<String>.string.accepting(.codes(200, 201)))
  }

  @Test func mapKeepsTheRequestAndTransformsTheResource() throws {
    let original = try base()
    let mapped = original.map { $0.count }
    let before = try original.request()
    let after = try mapped.request()
    #expect(after.method == before.method)
    #expect(after.url == before.url)
    #expect(after.headerFields == before.headerFields)
    #expect(after.body?.data == before.body?.data)
    #expect(after.timeout == before.timeout)
    #expect(mapped.parser.acceptedStatus == .codes(200, 201))
    #expect(try mapped.parse(try response(201), bytes("four")) == 4)
  }

  @Test func mapComposes() throws {
    let endpoint = try base().map { $0.uppercased() }.map { "<\($0)>" }.map(\.count)
    #expect(try endpoint.parse(try response(), bytes("ab")) == 4)
  }

  @Test func tryMapErrorIsWhatParseThrows() throws {
    let endpoint = try base().tryMap { value -> Int in
      guard let number = Int(value) else { throw TestFailure(message: "not a number: \(value)") }
      return number
    }
    #expect(try endpoint.parse(try response(), bytes("12")) == 12)
    #expect(throws: TestFailure(message: "not a number: x")) {
      try endpoint.parse(try response(), bytes("x"))
    }
  }

  @Test func compactMapNilIsAParsingFailure() throws {
    let endpoint = try base().compactMap { Int($0) }
    #expect(try endpoint.parse(try response(), bytes("7")) == 7)
    let error = try #require(throws: ParsingFailure.self) {
      try endpoint.parse(try response(), bytes("seven"))
    }
    #expect(error.type == "Int")
    #expect(error.reason == "the transform returned nil")
    #expect(error.body == bytes("seven"))
  }

  @Test func transformsComposeInAnyOrder() throws {
    let endpoint = try base().compactMap { Int($0) }.tryMap { $0 * 2 }.map { "\($0)" }
    #expect(try endpoint.parse(try response(), bytes("21")) == "42")
  }

  @Test func statusIsCheckedBeforeAnyTransformRuns() throws {
    let ran = EventLog()
    let endpoint = try base().map { value -> String in
      ran.record(value)
      return value
    }
    #expect(throws: UnexpectedResponse.self) { try endpoint.parse(try response(500), bytes("x")) }
    #expect(ran.events.isEmpty)
  }

  @Test func adjustmentsKeepTheTransform() throws {
    let endpoint = try base().map(\.count)
      .settingHeader("2", for: "x")
      .addingQuery("r", "2")
      .timeout(.seconds(9))
      .accepting(.any)
    let request = try endpoint.request()
    #expect(request.headerFields.values(for: "X") == ["2"])
    #expect(request.url.absoluteString == "https://a.example/x?q=1&r=2")
    #expect(request.timeout == .seconds(9))
    #expect(try endpoint.parse(try response(404), bytes("abc")) == 3)
  }
}

/// Per-request options: carried from the endpoint to its request, kept by transforms, checked.
@Suite struct RequestOptionsValueTests {
  @Test func anEndpointsOptionsReachItsRequestAndSurviveMap() throws {
    let url = try #require(URL(string: "https://api.example.com/export"))
    let endpoint = Endpoint(.get, url: url, parser: .data)
      .following(.doNotFollow)
      .idleTimeout(.limited(.seconds(120)))
      .maximumResponseSize(.unlimited)
      .map { $0.count }
    let request = try endpoint.request()
    #expect(request.options.redirectPolicy == .doNotFollow)
    #expect(request.options.idleTimeout == .limited(.seconds(120)))
    #expect(request.options.maximumResponseSize == .unlimited)
    #expect(request.options.description.contains("redirects: do not follow"))
  }

  @Test func unsetOptionsFallBackToTheClients() {
    let options = RequestOptions()
    #expect(options.isEmpty)
    #expect(options.description == "client's")
    #expect(options.idleTimeout(client: .seconds(7)) == .seconds(7))
    #expect(options.maximumResponseSize(client: 10) == 10)
    #expect(options.redirectPolicy(client: .follow(upTo: 3)) == .follow(upTo: 3))
    let lifted = RequestOptions(idleTimeout: .unlimited, maximumResponseSize: .unlimited)
    #expect(lifted.idleTimeout(client: .seconds(7)) == nil)
    #expect(lifted.maximumResponseSize(client: 10) == nil)
  }

  @Test func anEndpointWithAnUnusableOptionThrowsFromRequest() throws {
    let url = try #require(URL(string: "https://api.example.com/export"))
    let endpoint = Endpoint(.get, url: url, parser: .data).idleTimeout(.limited(.seconds(-1)))
    let error = try #require(throws: InvalidRequest.self) { try endpoint.request() }
    #expect(error.kind == .option)
    #expect(error.setting == "idleTimeout")
    #expect(error.reason.contains("greater than zero"))
  }
}
