import Foundation
import Testing

@testable import EndpointTransport

/// What a redirect's `Location` fields decide, the same on both clients: none makes the 3xx
/// the final response, two different ones fail, and user information in one never becomes
/// credentials for the target.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct RedirectLocationTests {
  @Test(arguments: TransportUnderTest.allCases, [301, 302, 303, 307, 308])
  func aRedirectWithoutLocationIsTheFinalResponse(transport: TransportUnderTest, status: Int)
    async throws
  {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/redirect?status=\(status)")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    let data = try await body.collect(upTo: 1 << 16)
    #expect(response.status == status)
    #expect(response.headerFields["Location"] == nil)
    #expect(response.headerFields["Content-Type"] == "application/json")
    switch transport {
    case .curl:
      #expect(data == Data(#"{"redirect": \#(status)}"#.utf8))
    case .urlSession:
      // Foundation on Linux keeps such a redirect's body to itself ("The transport on Linux").
      #expect(data.isEmpty)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func twoDifferentLocationsAreNotFollowed(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/redirect?location=/echo&location=/status/201")
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.kind == .malformedResponse)
    #expect(error.description.contains("different Location"), "\(error)")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRepeatedLocationIsFollowed(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/redirect?location=/echo&location=/echo")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(json["path"] as? String == "/echo")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func userInformationInALocationNeverBecomesCredentials(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let fault = try TestServers.fault.adding("/echo")
    let target = "http://chosen:by-the-server@\(fault.host!):\(fault.port!)/echo"
    let encoded = try #require(
      target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
    let url = try TestServers.fault.adding("/redirect?location=\(encoded)")
    let (response, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(json["path"] as? String == "/echo")
    let headers = try echoedHeaders(json)
    #expect(!headers.contains { $0.0 == "authorization" }, "\(transport): \(headers)")
    #expect(response.url?.user == nil)
  }
}
