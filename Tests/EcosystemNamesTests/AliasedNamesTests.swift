// A file of the app above: it imports both packages and writes no module name, because the app's
// aliases (AppAliases.swift) decide what each name means.
import EndpointCore
import EndpointTesting
import Foundation
import Namesakes
import Testing

private struct Trace: APIMiddleware {
  func intercept(
    _ request: APIRequest,
    next: @escaping Next
  ) async throws -> (APIResponse, EndpointCore.HTTPBody) {
    var request = request
    try request.headerFields.append("t1", for: "X-Trace")
    return try await next(request)
  }
}

@Suite struct AliasedNamesTests {
  @Test func thePlainNamesAreTheOnesTheAppChose() {
    #expect(HTTPRequest.self == Namesakes.HTTPRequest.self)
    #expect(HTTPResponse.self == Namesakes.HTTPResponse.self)
    #expect(APIRequest.self == EndpointCore.HTTPRequest.self)
    #expect(APIResponse.self == EndpointCore.HTTPResponse.self)
  }

  @Test func theAliasesSendThroughTheSDK() async throws {
    let api = URL(string: "https://api.example.com")!
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/ping").header("X-Trace", "t1").reply(status: 204)
    let client: any APIClient = stub.with(Trace())

    let (response, _) = try await client.send(
      APIRequest(method: .get, url: api.appending(path: "ping")))

    #expect(response.status == 204)
    let served = HTTPRequest(method: .get, path: "/ping")
    #expect(served.path == "/ping")
  }
}
