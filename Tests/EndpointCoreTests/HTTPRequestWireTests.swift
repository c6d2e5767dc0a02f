import EndpointCore
import Foundation
import Testing

/// `hostField` and `requestTarget`: what the transports put on the wire, by one rule. The wire
/// itself is checked against both clients in EndpointTransportTests' `WireTargetTests`.
@Suite struct HTTPRequestWireTests {
  private func request(_ url: String) throws -> HTTPRequest {
    HTTPRequest(method: .get, url: try #require(URL(string: url)))
  }

  @Test(arguments: [
    ("http://example.com/a", "example.com"),
    ("http://example.com:80/a", "example.com"),
    ("http://example.com:443/a", "example.com:443"),
    ("https://example.com:443/a", "example.com"),
    ("https://example.com:80/a", "example.com:80"),
    ("HTTPS://example.com:443/a", "example.com"),
    ("http://127.0.0.1:9000/a", "127.0.0.1:9000"),
    ("http://[::1]:9000/a", "[::1]:9000"),
    ("http://[::1]/a", "[::1]"),
    ("http://user:secret@example.com:8080/a", "example.com:8080"),
  ])
  func hostFieldIsTheHostWithANonDefaultPort(url: String, expected: String) throws {
    #expect(try request(url).hostField == expected)
  }

  @Test func hostFieldIsNilWithoutAHost() throws {
    #expect(try request("/relative/path").hostField == nil)
  }

  @Test(arguments: [
    ("http://example.com", "/"),
    ("http://example.com/", "/"),
    ("http://example.com?x=1", "/?x=1"),
    ("http://example.com/b/a%20b%2Bc~%C3%BC.txt", "/b/a%20b%2Bc~%C3%BC.txt"),
    ("http://example.com/b/a%2Fb", "/b/a%2Fb"),
    (
      "http://example.com/b?list-type=2&continuation-token=a%2Bb%3D",
      "/b?list-type=2&continuation-token=a%2Bb%3D"
    ),
    ("http://example.com/b?uploads", "/b?uploads"),
    ("http://example.com/p?q=1#section", "/p?q=1"),
  ])
  func requestTargetIsThePathAndQueryAsEncoded(url: String, expected: String) throws {
    #expect(try request(url).requestTarget == expected)
  }
}
