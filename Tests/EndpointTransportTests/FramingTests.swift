import Foundation
import Testing

@testable import EndpointTransport

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct FramingTests {
  @Test(arguments: TransportUnderTest.allCases)
  func framingFieldsFromTheRequestNeverReachTheWire(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    var request = HTTPRequest(method: .post, url: url, body: HTTPBody("12345"))
    try request.headerFields.append("999", for: "Content-Length")
    try request.headerFields.append("chunked", for: "Transfer-Encoding")
    try request.headerFields.append("evil.example", for: "Host")
    try request.headerFields.append("close", for: "Connection")
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (_, echo) = try await sendForJSON(client, request)
    let headers = try echoedHeaders(echo)
    #expect(headers.filter { $0.0 == "content-length" }.map(\.1) == ["5"])
    #expect(!headers.contains { $0.0 == "transfer-encoding" })
    #expect(headers.filter { $0.0 == "host" }.map(\.1) == ["\(url.host!):\(url.port!)"])
    #expect(!headers.contains { $0 == ("connection", "close") })
    #expect(try echoedBody(echo) == Data("12345".utf8))

    // The connection is still sound: the next request on it is answered correctly.
    let (_, again) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    #expect(again["method"] as? String == "GET")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func repeatedRequestFieldsAreSent(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    var request = HTTPRequest(method: .get, url: url)
    try request.headerFields.append("a", for: "X-Many")
    try request.headerFields.append("b", for: "X-Many")
    let (_, echo) = try await sendForJSON(client, request)
    let values = try echoedHeaders(echo).filter { $0.0 == "x-many" }.map(\.1)
    #expect(values == ["a,b"] || values == ["a", "b"] || values == ["a, b"])
  }
}
