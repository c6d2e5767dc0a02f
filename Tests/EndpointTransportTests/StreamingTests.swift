import Foundation
import Testing

@testable import EndpointTransport

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct StreamingTests {
  @Test(arguments: TransportUnderTest.allCases)
  func streamedJSONLinesArriveOneByOne(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.httpbin.adding("/stream/5")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    var ids: [Int] = []
    for try await line in body.lines where !line.isEmpty {
      ids.append(try #require(try jsonObject(Data(line.utf8))["id"] as? Int))
    }
    #expect(ids == [0, 1, 2, 3, 4])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func theHeadAndFirstBytesArriveWhileTheBodyIsStillComing(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
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

  @Test(arguments: TransportUnderTest.allCases)
  func aSlowChunkedBodyIsReadAsLines(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/slow-body?chunks=5&interval_ms=20")
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    var lines: [String] = []
    for try await line in body.lines { lines.append(line) }
    #expect(lines == (0..<5).map { "chunk-\($0)" })
  }

  @Test(arguments: TransportUnderTest.allCases)
  func serverSentEventsAreDecoded(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/sse")
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    #expect(response.mediaType == "text/event-stream")
    var events: [ServerSentEvent] = []
    for try await event in body.serverSentEvents { events.append(event) }
    #expect(
      events == [
        ServerSentEvent(id: "1", event: "greeting", data: "hello"),
        ServerSentEvent(id: "2", event: "multi", data: "line one\nline two"),
        ServerSentEvent(id: "3", event: "message", data: #"{"done": true}"#),
      ]
    )
  }
}
