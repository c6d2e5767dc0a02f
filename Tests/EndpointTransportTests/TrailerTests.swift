import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// Response trailers: read by the curl client after the body ends; never by URLSession, which
/// gives no access to them.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TrailerTests {
  @Test func curlReadsTheTrailerFieldsAfterTheBodyEnds() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/chunked-trailer")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    let data = try await body.collect()
    #expect(String(decoding: data, as: UTF8.self) == "hello")
    let trailers = try #require(body.trailerFields)
    #expect(trailers["X-Checksum"] == "abc")
    #expect(trailers.count == 1)
    // Not a field of the head.
    #expect(response.headerFields["X-Checksum"] == nil)
  }

  @Test func trailersPassThroughMiddlewareThatWrapTheBody() async throws {
    let spans = Recorder<SpanRecord>()
    let client = try CurlHTTPClient().with(
      LoggingMiddleware(sink: { _ in }),
      TraceContextMiddleware { spans.append($0) }
    )
    let url = try TestServers.fault.adding("/chunked-trailer")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    _ = try await body.collect()
    #expect(body.trailerFields?["X-Checksum"] == "abc")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aResponseWithoutTrailersHasNone(_ transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/stream/3")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    _ = try await body.collect()
    #expect(body.trailerFields == nil)
  }

  /// URLSession exposes no trailers (and on Linux Foundation ends the process on a chunked body
  /// with one, so the URLSession client is not sent `/chunked-trailer` here): its bodies never
  /// carry a place for them.
  @Test func urlSessionBodiesNeverCarryTrailers() async throws {
    let client = URLSessionHTTPClient()
    let url = try TestServers.httpbin.adding("/stream/2")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(body.trailers == nil)
    _ = try await body.collect()
    #expect(body.trailerFields == nil)
  }
}

/// Request trailers: sent by the curl client after a chunked body; refused by URLSession,
/// which cannot send them.
@Suite struct RequestTrailerTests {
  private func chunks() -> AsyncStream<Data> {
    AsyncStream { continuation in
      continuation.yield(Data("hello ".utf8))
      continuation.yield(Data("world".utf8))
      continuation.finish()
    }
  }

  @Test func curlSendsTheTrailerFieldsAfterTheLastChunk() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let sent = Recorder<Int>()
    let body = HTTPBody(chunks()) {
      // Called once the stream has ended.
      sent.append(1)
      return ["X-Checksum": "sha256-abc", "X-Parts": "2"]
    }
    #expect(body.sendsTrailerFields)
    let client = try CurlHTTPClient()
    let request = HTTPRequest(method: .put, url: server.url.adding("/upload"), body: body)
    let (response, _) = try await client.send(request)
    #expect(response.status == 200)
    let received = try #require(server.requests.first)
    #expect(String(decoding: received.body, as: UTF8.self) == "hello world")
    let framed = String(decoding: received.framedBody, as: UTF8.self)
    #expect(framed.hasSuffix("0\r\nX-Checksum: sha256-abc\r\nX-Parts: 2\r\n\r\n"))
    #expect(received.values(of: "Transfer-Encoding") == ["chunked"])
    #expect(sent.values.count == 1)
  }

  @Test func urlSessionRefusesABodyWithTrailersBeforeSending() async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let body = HTTPBody(chunks()) { ["X-Checksum": "abc"] }
    let client = URLSessionHTTPClient()
    let request = HTTPRequest(method: .put, url: server.url.adding("/upload"), body: body)
    let error = try await #require(throws: InvalidRequest.self) {
      _ = try await client.send(request)
    }
    #expect(error.kind == .unsupported)
    #expect(error.reason.contains("trailer"))
    #expect(error.description.hasSuffix(" cannot be sent: \(error.reason)"))
    #expect(server.bytesByConnection.isEmpty)
  }
}
