import EndpointCore
import EndpointTestSupport
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct BaseURLMiddlewareTests {
  /// Answers every request with its own URL as the body.
  struct URLEcho: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
      (HTTPResponse(status: 200), HTTPBody(request.url.absoluteString))
    }
  }

  @Test func relativeEndpointsGoWhereTheClientsBaseSays() async throws {
    let endpoint = Endpoint(
      .get, path: "users/\("a/b")", query: [.init(name: "q", value: "1")], parser: .string)
    let production = URLEcho().with(BaseURLMiddleware(try makeURL("https://api.example.com/v1")))
    let staging = URLEcho().with(BaseURLMiddleware(try makeURL("https://staging.example.com/v2/")))
    #expect(try await production.call(endpoint) == "https://api.example.com/v1/users/a%2Fb?q=1")
    #expect(try await staging.call(endpoint) == "https://staging.example.com/v2/users/a%2Fb?q=1")
  }

  @Test func fullyResolvedEndpointsPassUnchanged() async throws {
    let client = URLEcho().with(BaseURLMiddleware(try makeURL("https://api.example.com/v1")))
    let absolute = Endpoint(.get, url: try makeURL("https://other.example.org/x"), parser: .string)
    #expect(try await client.call(absolute) == "https://other.example.org/x")
    let written = Endpoint(.get, path: "https://other.example.org/y", parser: .string)
    #expect(try await client.call(written) == "https://other.example.org/y")
  }

  @Test func aRelativeEndpointKeepsItsPathUntilResolved() throws {
    let endpoint = Endpoint(.get, path: "/users/1", parser: .string)
    #expect(endpoint.url.absoluteString == "/users/1")
    #expect(try endpoint.request().url.scheme == nil)
    let colon = Endpoint(.get, path: "a:b/c", parser: .string)
    expectInvalidRequest(.url) { try colon.request() }
  }

  @Test func aBaseWithoutAHostIsRefused() async throws {
    let client = URLEcho().with(BaseURLMiddleware(try makeURL("/just/a/path")))
    await expectInvalidRequest(.url) {
      try await client.call(Endpoint(.get, path: "users", parser: .string))
    }
  }
}
