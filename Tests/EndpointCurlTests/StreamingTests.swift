import EndpointCurl
import Foundation
import Testing

@Suite struct StreamingTests {
  let client: CurlHTTPClient

  init() throws {
    client = try CurlHTTPClient()
  }

  @Test func streamedJSONLinesArriveOneByOne() async throws {
    let url = try TestServers.httpbin.adding("/stream/5")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    var ids: [Int] = []
    try await forEachLine(body) { line in
      guard !line.isEmpty else { return }
      ids.append(try #require(try jsonObject(Data(line.utf8))["id"] as? Int))
    }
    #expect(ids == [0, 1, 2, 3, 4])
  }

  @Test func theHeadAndFirstBytesArriveWhileTheBodyIsStillComing() async throws {
    // The server sends half of the declared body, then stalls: only a client that hands over
    // the head and the bytes as they come can see them.
    let url = try TestServers.fault.adding("/stall?after=100000")
    let request = HTTPRequest(method: .get, url: url, timeout: .seconds(10))
    let (response, body) = try await client.send(request)
    #expect(response.status == 200)
    #expect(body.length == 200_000)
    var iterator = body.makeAsyncIterator()
    let first = try await iterator.next()
    #expect((first?.count ?? 0) > 0)
  }

  @Test func aSlowChunkedBodyIsReadAsLines() async throws {
    let url = try TestServers.fault.adding("/slow-body?chunks=5&interval_ms=20")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    var lines: [String] = []
    try await forEachLine(body) { lines.append($0) }
    #expect(lines == (0..<5).map { "chunk-\($0)" })
  }

  @Test func serverSentEventsArriveAsText() async throws {
    let url = try TestServers.fault.adding("/sse")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.mediaType == "text/event-stream")
    var lines: [String] = []
    try await forEachLine(body) { lines.append($0) }
    #expect(lines.filter { $0.hasPrefix("id:") }.count == 3)
    #expect(lines.contains("data: line one"))
    #expect(lines.contains("data: line two"))
  }
}
