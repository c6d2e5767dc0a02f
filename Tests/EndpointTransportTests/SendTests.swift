import EndpointJSON
import EndpointTransport
import Foundation
import Testing

@Suite struct SendTests {
  let client = URLSessionHTTPClient()

  @Test func getReturnsStatusHeadersAndBody() async throws {
    let url = try TestServers.httpbin.adding("/get?name=a%20b&x=1")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(response.mediaType == "application/json")
    let data = try await body.collect(upTo: 1 << 20)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let args = try #require(json["args"] as? [String: String])
    #expect(args == ["name": "a b", "x": "1"])
  }
}
