import Foundation
import Testing

@testable import EndpointCurl

/// Easy handles are reused without a reset after plain requests: nothing one request set may
/// reach the next one on the same handle.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct HandleReuseTests {
  /// The method, body and header fields the fault server's `/echo` saw.
  private func echo(
    _ client: CurlHTTPClient,
    _ method: HTTPMethod,
    body: Data? = nil,
    fields: [(String, String)] = []
  ) async throws -> (method: String, body: Data, headers: [(String, String)]) {
    var request = HTTPRequest(
      method: method, url: try TestServers.fault.adding("/echo"), body: body.map(HTTPBody.init))
    for (name, value) in fields { try request.headerFields.append(value, for: name) }
    let (_, json) = try await sendForJSON(client, request)
    return (
      try #require(json["method"] as? String), try echoedBody(json), try echoedHeaders(json)
    )
  }

  @Test func aGetAfterRequestsWithMethodsAndBodiesIsAPlainGet() async throws {
    let client = try CurlHTTPClient()
    let payload = Data("payload".utf8)
    let plain = try await echo(client, .get)
    #expect(plain.method == "GET")
    for method in [HTTPMethod.post, .put, .patch, .delete] {
      let sent = try await echo(client, method, body: payload)
      #expect(sent.method == method.rawValue)
      #expect(sent.body == payload)
      let after = try await echo(client, .get)
      #expect(after.method == "GET", "after \(method)")
      #expect(after.body.isEmpty, "after \(method)")
      #expect(!after.headers.contains { $0.0 == "content-length" }, "after \(method)")
    }
    // Only one handle served them all: the sequence really reused it.
    #expect(client.liveEasyHandles == 1)
  }

  @Test func aGetAfterAHeadGetsItsBody() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let (head, headBody) = try await client.send(HTTPRequest(method: .head, url: url))
    #expect(head.status == 200)
    #expect(try await headBody.collect(upTo: 1 << 16).isEmpty)
    let after = try await echo(client, .get)
    #expect(after.method == "GET")
    #expect(client.liveEasyHandles == 1)
  }

  @Test func aCallersAcceptEncodingDoesNotStayOnTheHandle() async throws {
    let client = try CurlHTTPClient()
    let own = try await echo(client, .get, fields: [("Accept-Encoding", "identity")])
    #expect(own.headers.filter { $0.0 == "accept-encoding" }.map(\.1) == ["identity"])
    let after = try await echo(client, .get)
    let offered = after.headers.filter { $0.0 == "accept-encoding" }.map(\.1)
    #expect(offered.count == 1)
    #expect(offered.first?.contains("gzip") == true)
    #expect(client.liveEasyHandles == 1)
  }

  @Test func aRequestsFieldsDoNotReachTheNextRequest() async throws {
    let client = try CurlHTTPClient()
    let first = try await echo(client, .get, fields: [("X-First", "1")])
    #expect(first.headers.contains { $0 == ("x-first", "1") })
    let second = try await echo(client, .get)
    #expect(!second.headers.contains { $0.0 == "x-first" })
  }
}
