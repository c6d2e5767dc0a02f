import EndpointTesting
import Foundation
import Testing

@Suite struct ConcurrentRecordingTests {
  @Test(arguments: [RecordMode.recordNew, .reRecordAll])
  func twoClientsRecordingToOneFileLoseNoExchange(mode: RecordMode) async throws {
    try await withTemporaryFixture("twoClients\(mode.rawValue)") { file in
      let clients = (0..<2).map { _ in
        ReplayClient(
          fixture: file, recordingWith: FixedClient(body: "ok"), mode: mode, environment: [:])
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, client) in clients.enumerated() {
          for number in 0..<12 {
            group.addTask {
              _ = try await client.send(request(.get, "https://x.test/\(index)/\(number)"))
            }
          }
        }
        try await group.waitForAll()
      }
      let exchanges = try ReplayClient.exchanges(inFixture: file)
      let paths = Set(exchanges.map(\.request.url.path))
      #expect(exchanges.count == 24)
      #expect(paths.count == 24)
      // Nothing is left beside the fixture.
      let siblings = try FileManager.default.contentsOfDirectory(
        atPath: file.deletingLastPathComponent().path)
      #expect(siblings == [file.lastPathComponent])
    }
  }

  @Test func removeAllWhileAStreamedBodyIsReadNeverCrashes() async throws {
    let recorder = RecordingClient(wrapping: StreamingClient(chunks: ["a", "b", "c", "d"]))
    let (_, first) = try await recorder.send(request(.get, "https://x.test/one"))
    var iterator = first.makeAsyncIterator()
    _ = try await iterator.next()
    recorder.removeAll()
    let (_, second) = try await recorder.send(request(.get, "https://x.test/two"))
    var rest = Data()
    while let chunk = try await iterator.next() { rest.append(chunk) }
    #expect(String(decoding: rest, as: UTF8.self) == "bcd")
    #expect(try await text(second) == "abcd")
    let exchanges = recorder.exchanges
    #expect(exchanges.count == 1)
    #expect(String(decoding: exchanges.first?.responseBody ?? Data(), as: UTF8.self) == "abcd")
    #expect(exchanges.first?.request.url.path == "/two")
  }
}
