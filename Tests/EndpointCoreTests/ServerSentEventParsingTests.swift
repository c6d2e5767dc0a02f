import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Event-stream parsing against the WHATWG HTML standard, on in-memory and chunked bodies.
@Suite struct ServerSentEventParsingTests {
  private func events(_ text: String, chunkSize: Int? = nil) async throws -> [ServerSentEvent] {
    let data = Data(text.utf8)
    let body: HTTPBody
    if let chunkSize {
      let chunks = stride(from: 0, to: data.count, by: chunkSize).map {
        data.subdata(in: $0..<min($0 + chunkSize, data.count))
      }
      body = HTTPBody(
        AsyncStream { continuation in
          for chunk in chunks { continuation.yield(chunk) }
          continuation.finish()
        })
    } else {
      body = HTTPBody(data)
    }
    var result: [ServerSentEvent] = []
    for try await event in body.serverSentEvents { result.append(event) }
    return result
  }

  @Test func multiLineDataIsJoinedWithLineFeeds() async throws {
    let parsed = try await events("data: one\ndata: two\ndata:three\n\n")
    #expect(parsed == [ServerSentEvent(data: "one\ntwo\nthree")])
  }

  @Test func commentsAndUnknownFieldsAreIgnored() async throws {
    let parsed = try await events(": keep-alive\nfoo: bar\ndata: x\n\n:another\n")
    #expect(parsed == [ServerSentEvent(data: "x")])
  }

  @Test func idPersistsAndRetryIsReported() async throws {
    let text = "retry: 2500\nid: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n"
    let parsed = try await events(text)
    #expect(parsed.map(\.id) == ["7", "7", nil])
    #expect(parsed.allSatisfy { $0.retry == .milliseconds(2500) })
  }

  @Test func invalidRetryAndIdWithNulAreIgnored() async throws {
    let parsed = try await events("retry: 12a\nid: a\u{0}b\ndata: x\n\n")
    #expect(parsed == [ServerSentEvent(data: "x")])
  }

  @Test func eventTypeResetsAfterEachEvent() async throws {
    let parsed = try await events("event: update\ndata: 1\n\ndata: 2\n\n")
    #expect(parsed.map(\.event) == ["update", "message"])
  }

  @Test func blocksWithoutDataAreNotDispatched() async throws {
    let parsed = try await events("event: ping\n\nid: 1\n\ndata:\n\n")
    #expect(parsed == [ServerSentEvent(id: "1", data: "")])
  }

  @Test func anEventCutOffByTheEndIsDropped() async throws {
    let parsed = try await events("data: complete\n\ndata: partial")
    #expect(parsed == [ServerSentEvent(data: "complete")])
  }

  @Test func allLineEndingsAndAByteOrderMarkAreAccepted() async throws {
    let text = "\u{FEFF}data: crlf\r\n\r\ndata: cr\r\rdata: lf\n\n"
    #expect(
      try await events(text)
        == [
          ServerSentEvent(data: "crlf"), ServerSentEvent(data: "cr"), ServerSentEvent(data: "lf"),
        ]
    )
  }

  @Test(arguments: [1, 2, 3, 7])
  func chunkBoundariesDoNotMatter(chunkSize: Int) async throws {
    let text = "id: 1\r\nevent: e\r\ndata: héllo\r\ndata: wörld\r\n\r\n: c\r\ndata: 2\r\n\r\n"
    let whole = try await events(text)
    #expect(try await events(text, chunkSize: chunkSize) == whole)
    #expect(whole.count == 2)
    #expect(whole.first?.data == "héllo\nwörld")
  }

  @Test func onlyOneLeadingSpaceIsRemoved() async throws {
    let parsed = try await events("data:  two spaces\n\n")
    #expect(parsed.first?.data == " two spaces")
  }
}

@Suite struct LineTests {
  @Test func linesSplitOnEveryLineEndingAcrossChunks() async throws {
    let chunks = ["a\r", "\nb", "\rc\n", "\n", "last"].map { Data($0.utf8) }
    let body = HTTPBody(
      AsyncStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
      })
    var lines: [String] = []
    for try await line in body.lines { lines.append(line) }
    #expect(lines == ["a", "b", "c", "", "last"])
  }

  @Test func invalidUTF8IsReplaced() async throws {
    let body = HTTPBody(Data([0x61, 0xFF, 0x62, 0x0A]))
    var lines: [String] = []
    for try await line in body.lines { lines.append(line) }
    #expect(lines == ["a\u{FFFD}b"])
  }
}
