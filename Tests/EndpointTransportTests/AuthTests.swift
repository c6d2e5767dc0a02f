import Foundation
import Testing

@testable import EndpointTransport

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct AuthTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aChallengeReturnsThe401AtOnceWithItsHeaderAndBody(transport: TransportUnderTest) async throws
  {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/auth-challenge")
    // A client that waited for credentials would run into the deadline; one that returns the
    // 401 at once is far below it, even on a loaded machine.
    let request = HTTPRequest(method: .get, url: url, timeout: .seconds(30))
    let (result, duration) = await elapsed { try await client.send(request) }
    let (response, body) = try result.get()
    #expect(response.status == 401)
    #expect(response.headerFields["WWW-Authenticate"]?.hasPrefix("Basic") == true)
    let json = try jsonObject(try await body.collect(upTo: 1 << 16))
    #expect(!json.isEmpty)
    #expect(duration < .seconds(20))  // well before the 30 s deadline
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aChallengeReachesTheParserAsUnexpectedResponse(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let endpoint = Endpoint(
      .get,
      url: try TestServers.fault.adding("/auth-challenge"),
      timeout: .seconds(5),
      parser: .data
    )
    let error = try await #require(throws: UnexpectedResponse.self) {
      try await client.call(endpoint)
    }
    #expect(error.status == 401)
    #expect(!error.body.isEmpty)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func basicAuthWithoutCredentialsIs401(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/basic-auth/user/pass")
    let request = HTTPRequest(method: .get, url: url, timeout: .seconds(5))
    let (response, _) = try await client.send(request)
    #expect(response.status == 401)
    #expect(response.headerFields["WWW-Authenticate"] != nil)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func basicAuthWithCredentialsSucceeds(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/basic-auth/user/pass")
    var request = HTTPRequest(method: .get, url: url)
    let token = Data("user:pass".utf8).base64EncodedString()
    try request.headerFields.append("Basic \(token)", for: "Authorization")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    #expect(json["authenticated"] as? Bool == true)
    #expect(json["user"] as? String == "user")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func bearerTokenIsSentAndAbsenceIs401(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/bearer")
    let (missing, _) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(missing.status == 401)
    var request = HTTPRequest(method: .get, url: url)
    try request.headerFields.append("Bearer abc123", for: "Authorization")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    #expect(json["token"] as? String == "abc123")
  }
}
