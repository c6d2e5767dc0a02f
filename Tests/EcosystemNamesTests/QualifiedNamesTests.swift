// A file that imports the SDK beside a package declaring the same names (Namesakes stands in for
// swift-http-types, AsyncHTTPClient, swift-openapi-runtime, Vapor and Alamofire). Unqualified, the
// seven shared names are ambiguous here; the module name says which is meant. The SDK's modules
// re-export EndpointCore, so its types are `EndpointCore.X` whichever SDK module is imported: this
// file imports only EndpointTesting.
import EndpointTesting
import Foundation
import Namesakes
import Testing

/// An SDK middleware, declared where the server's `Middleware` is also in scope.
private struct StampMiddleware: EndpointCore.Middleware {
  func intercept(
    _ request: EndpointCore.HTTPRequest,
    next: @escaping Next
  ) async throws -> (EndpointCore.HTTPResponse, EndpointCore.HTTPBody) {
    var request = request
    try request.headerFields.append("1", for: "X-Stamp")
    return try await next(request)
  }
}

/// A server middleware, as a Vapor app declares one, in the same file.
private struct TeapotMiddleware: Namesakes.Middleware {
  func respond(
    to request: Namesakes.HTTPRequest,
    next: (Namesakes.HTTPRequest) -> Namesakes.HTTPResponse
  ) -> Namesakes.HTTPResponse {
    request.path == "/teapot" ? Namesakes.HTTPResponse(status: 418) : next(request)
  }
}

@Suite struct QualifiedNamesTests {
  let api = URL(string: "https://api.example.com")!

  @Test func theSDKsTypesAreNamedByTheirModule() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/motd").header("X-Stamp", "1").reply(text: "Hello")
    let client: any EndpointCore.HTTPClient = stub.with(StampMiddleware())

    let endpoint = Endpoint<String>(
      EndpointCore.HTTPMethod.get, url: api.appending(path: "motd"), parser: .string)
    let motd = try await client.call(endpoint)

    #expect(motd == "Hello")
    try stub.verify()
  }

  @Test func theOtherPackagesTypesAreNamedByTheirs() {
    let server = TeapotMiddleware()
    let answer = server.respond(to: Namesakes.HTTPRequest(method: .get, path: "/teapot")) { _ in
      Namesakes.HTTPResponse(status: 200)
    }
    let body = Namesakes.HTTPBody(Array("tea".utf8))
    let client = Namesakes.HTTPClient(name: "upstream")

    #expect(answer.status == 418)
    #expect(body.bytes.count == 3)
    #expect(client.name == "upstream")
  }

  @Test func aMemberOfAnAnnotatedTypeNeedsNoModuleName() {
    // `.get` resolves against the parameter's type, so only declarations carry the module name.
    let sdk = EndpointCore.HTTPRequest(method: .get, url: api)
    let server = Namesakes.HTTPRequest(method: .get, path: "/")

    #expect(sdk.method.rawValue == server.method.rawValue)
  }
}
