import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Lines and server-sent events are read with a bound on what a line may hold, so a server that
/// never ends one costs an error, not memory.
@Suite struct LineLimitTests {
  /// A body of `count` chunks of `size` bytes with no line ending, made as it is read.
  private func endless(chunks count: Int, of size: Int) -> HTTPBody {
    let chunk = Data(repeating: UInt8(ascii: "x"), count: size)
    return HTTPBody(
      AsyncStream<Data> { continuation in
        for _ in 0..<count { continuation.yield(chunk) }
        continuation.finish()
      })
  }

  @Test func aLineLongerThanTheLimitThrows() async throws {
    let body = HTTPBody("short\n" + String(repeating: "y", count: 100) + "\nafter\n")
    var lines: [String] = []
    let error = await #expect(throws: TransportFailure.self) {
      for try await line in body.lines(maximumLength: 50) { lines.append(line) }
    }
    #expect(error?.kind == .lineTooLong)
    #expect(lines == ["short"])
    #expect(error == TransportFailure.lineTooLong(limit: 50))
    #expect(error?.description.contains("50 bytes") == true)
  }

  @Test func aLineOfExactlyTheLimitIsRead() async throws {
    let text = String(repeating: "z", count: 50)
    var lines: [String] = []
    for try await line in HTTPBody(text + "\r\n" + text).lines(maximumLength: 50) {
      lines.append(line)
    }
    #expect(lines == [text, text])
  }

  @Test func theDefaultLimitStopsAnEndlessLineEarly() async throws {
    // 64 MiB offered; the reader gives up just past 1 MiB.
    await #expect(throws: TransportFailure.lineTooLong(limit: HTTPBody.defaultMaximumLineLength)) {
      for try await _ in endless(chunks: 1024, of: 64 * 1024).lines {}
    }
  }

  @Test func anEventWithEndlessDataThrows() async throws {
    let lines = String(repeating: "data: 0123456789\n", count: 100)
    let body = HTTPBody("data: first\n\n" + lines + "\n")
    var events: [String] = []
    await #expect(throws: TransportFailure.lineTooLong(serverSentEvent: true, limit: 200)) {
      for try await event in body.serverSentEvents(maximumLength: 200) {
        events.append(event.data)
      }
    }
    #expect(events == ["first"])
  }

  @Test func anEndlessEventLineThrows() async throws {
    let failure = await #expect(throws: TransportFailure.self) {
      for try await _ in endless(chunks: 64, of: 64 * 1024).serverSentEvents(maximumLength: 4096) {}
    }
    #expect(failure?.kind == .lineTooLong)
  }
}
