import Foundation
import Testing

@testable import EndpointTransport

/// A response whose framing could be read two ways is an error on both clients, never a body
/// chosen by one reading (RFC 9112, section 6.3): the fault server's `/framing` sends the same
/// ten bytes under each head.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ResponseFramingWireTests {
  /// Heads that are not one message: both `Content-Length` and `Transfer-Encoding`, or a
  /// `Transfer-Encoding` whose last coding is not `chunked`.
  static let ambiguous = [
    "te=chunked&cl=10", "te=chunked&cl=3", "te=gzip", "te=chunked,%20gzip", "te=gzip&cl=10",
  ]

  @Test(arguments: TransportUnderTest.allCases, ambiguous)
  func anAmbiguousResponseIsAnError(transport: TransportUnderTest, query: String) async throws {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/framing?\(query)")
    let error = try await #require(throws: TransportFailure.self) {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      let data = try await body.collect(upTo: 1 << 16)
      Issue.record("\(transport) \(query): \(response.status) \(data.count) bytes")
    }
    #expect(error.kind == .malformedResponse, "\(transport) \(query): \(error)")
  }

  /// The same bytes under a head with one framing are a success on both clients.
  @Test(arguments: TransportUnderTest.allCases, ["te=chunked", "cl=10", "version=HTTP/1.0"])
  func oneFramingIsRead(transport: TransportUnderTest, query: String) async throws {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/framing?\(query)")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1 << 16) == Data("framed-ok!".utf8))
  }

  /// A status line whose version is not HTTP/1.x on an HTTP/1.1 connection: the curl client
  /// refuses it. Foundation on Linux reads `HTTP/2 200` and `HTTP/2.0 200` there as a 200 and
  /// shows no version, so the URLSession client cannot see it ("The transport on Linux"): this
  /// pins what Foundation does, and fails when it changes.
  @Test(arguments: TransportUnderTest.allCases, ["HTTP/2", "HTTP/2.0", "HTTP/3", "HTTP/0.9"])
  func aStatusLineThatIsNotHTTP1IsAnError(transport: TransportUnderTest, version: String)
    async throws
  {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding("/framing?version=\(version)&cl=10")
    let result: Result<(Int, Data), any Error>
    do {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      result = .success((response.status, try await body.collect(upTo: 1 << 16)))
    } catch {
      result = .failure(error)
    }
    if transport == .urlSession, version.hasPrefix("HTTP/2") {
      let (status, data) = try result.get()
      #expect(status == 200)
      #expect(data == Data("framed-ok!".utf8))
    } else {
      #expect(throws: TransportFailure.self) { try result.get() }
      #expect((result.failure as? TransportFailure)?.kind == .malformedResponse, "\(result)")
    }
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
