import EndpointCore
import EndpointTestSupport
import Foundation
import Synchronization
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// A body sends exactly the bytes its length declares, on both clients, read on the wire: a file
/// that grew or shrank after its body was made fails with `BodyLengthMismatch`, and nothing of
/// it becomes a request the server answers or the start of the next one on the connection.
@Suite struct WireBodyLengthTests {
  enum Change: String, CaseIterable, Sendable {
    case grew, shrank
  }

  @Test(arguments: TransportUnderTest.allCases, Change.allCases)
  func aFileThatChangedAfterItsBodyWasMadeFails(
    transport: TransportUnderTest,
    change: Change
  ) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory.appending(path: "grow-\(UUID()).txt")
    let declared = Data(repeating: UInt8(ascii: "a"), count: 100_000)
    try declared.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let body = try HTTPBody(contentsOf: file)
    switch change {
    case .grew:
      try (declared + Data("GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n".utf8)).write(to: file)
    case .shrank:
      try declared.prefix(10).write(to: file)
    }
    let client = try transport.makeClient()
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .post, url: server.url, body: body))
    }
    #expect(error?.kind == .bodyLengthMismatch)
    #expect(error?.declaredLength == 100_000)
    // The client goes on with the next request, in step, on a clean connection.
    let (response, next) = try await client.send(
      HTTPRequest(method: .get, url: server.url.appending(path: "after")))
    #expect(response.status == 200)
    #expect(try await next.collect(upTo: 16) == Data("ok".utf8))
    #expect(server.requests.map(\.requestLine) == ["GET /after HTTP/1.1"])
    #expect(!server.bytesByConnection.joined().contains(Array("/smuggled".utf8)))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aStreamLongerThanItsLengthNeverArrivesComplete(transport: TransportUnderTest) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let body = HTTPBody(
      AsyncStream<Data> { continuation in
        Task {
          continuation.yield(Data(repeating: 0x61, count: 100_000))
          // Time for the declared bytes to go out before the stream shows it runs on.
          try? await Task.sleep(for: .milliseconds(200))
          continuation.yield(Data("GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
          continuation.finish()
        }
      },
      length: 100_000
    )
    let client = try transport.makeClient()
    let failure = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .post, url: server.url, body: body))
    }
    #expect(failure?.kind == .bodyLengthMismatch)
    let (response, next) = try await client.send(
      HTTPRequest(method: .get, url: server.url.appending(path: "after")))
    #expect(response.status == 200)
    #expect(try await next.collect(upTo: 16) == Data("ok".utf8))
    #expect(server.requests.map(\.requestLine) == ["GET /after HTTP/1.1"])
    // The bytes that reached the server stop short of the declared length.
    let received = server.bytesByConnection.map(\.count).reduce(0, +)
    #expect(received < 100_000 + 1_000)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUnchangedFileIsSentWhole(transport: TransportUnderTest) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory.appending(path: "same-\(UUID()).txt")
    let content = Data((0..<200_000).map { UInt8($0 % 251) })
    try content.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let client = try transport.makeClient()
    let (response, body) = try await client.send(
      HTTPRequest(method: .put, url: server.url, body: try HTTPBody(contentsOf: file)))
    _ = try await body.collect(upTo: 16)
    #expect(response.status == 200)
    #expect(server.requests.count == 1)
    #expect(server.requests.first?.body == Array(content))
  }
}

/// A streamed body that URLSession's client spools to a temporary file.
@Suite struct SpooledBodyTests {
  private func largeStream(_ size: Int) -> HTTPBody {
    HTTPBody(
      AsyncStream<Data> { continuation in
        var left = size
        while left > 0 {
          let chunk = min(left, 1 << 20)
          continuation.yield(Data(repeating: 0x61, count: chunk))
          left -= chunk
        }
        continuation.finish()
      })
  }

  @Test func theSpoolFileIsReadableByTheOwnerOnly() async throws {
    let url = try #require(URL(string: "http://127.0.0.1:9/upload"))
    let prepared = try await PreparedBody(
      HTTPRequest(method: .post, url: url, body: largeStream(PreparedBody.memoryLimit + 1)))
    let file = try #require(prepared.temporaryFile)
    defer { try? FileManager.default.removeItem(at: file) }
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func aRefusedRequestLeavesNoSpoolFile() async throws {
    let directory = FileManager.default.temporaryDirectory
    func spoolFiles() throws -> Set<String> {
      Set(
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
          .filter { $0.hasPrefix("endpoint-upload-") })
    }
    let before = try spoolFiles()
    let client = URLSessionHTTPClient()
    let url = try #require(URL(string: "http://127.0.0.1:9/upload"))
    await expectInvalidRequest(.unsupported) {
      _ = try await client.send(
        HTTPRequest(method: .get, url: url, body: largeStream(PreparedBody.memoryLimit + 1)))
    }
    // Other tests may spool at the same moment; theirs go when their transfers end, which on a
    // loaded machine can take a while.
    let start = ContinuousClock.now
    while try !spoolFiles().subtracting(before).isEmpty, ContinuousClock.now - start < .seconds(30)
    {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(try spoolFiles().subtracting(before).isEmpty)
  }
}

/// Streams and files that do not give the bytes they declared, in the shapes a caller can
/// produce: too many bytes in the very chunk that completes the length, in a chunk right after
/// it, too few, and small files (read in one piece) that changed.
@Suite struct WireBodyLengthShapeTests {
  static let smuggled = Data("GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n".utf8)

  enum StreamShape: String, CaseIterable, Sendable {
    case extraInTheLastChunk, extraInAChunkAfter, short, shortThenEmptyChunks

    var chunks: [Data] {
      let hello = Data("hello".utf8)
      return switch self {
      case .extraInTheLastChunk: [hello + WireBodyLengthShapeTests.smuggled]
      case .extraInAChunkAfter: [hello, WireBodyLengthShapeTests.smuggled]
      case .short: [Data("hel".utf8)]
      case .shortThenEmptyChunks: [Data("hel".utf8), Data(), Data()]
      }
    }
  }

  /// Checks nothing but `GET /after` was read as a request, no smuggled byte arrived, and the
  /// client goes on in step.
  private func expectCleanConnection(
    _ client: any HTTPClient,
    _ server: CaptureServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let (response, next) = try await client.send(
      HTTPRequest(method: .get, url: server.url.appending(path: "after")))
    #expect(response.status == 200, sourceLocation: sourceLocation)
    #expect(try await next.collect(upTo: 16) == Data("ok".utf8), sourceLocation: sourceLocation)
    #expect(
      server.requests.map(\.requestLine) == ["GET /after HTTP/1.1"],
      sourceLocation: sourceLocation)
    #expect(
      !server.bytesByConnection.joined().contains(Array("/smuggled".utf8)),
      sourceLocation: sourceLocation)
  }

  @Test(arguments: TransportUnderTest.allCases, StreamShape.allCases)
  func aStreamThatMissesItsLengthNeverCompletesARequest(
    transport: TransportUnderTest,
    shape: StreamShape
  ) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let chunks = shape.chunks
    let body = HTTPBody(
      AsyncStream<Data> { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
      },
      length: 5
    )
    let client = try transport.makeClient()
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .put, url: server.url, body: body))
    }
    #expect(error?.kind == .bodyLengthMismatch)
    #expect(error?.declaredLength == 5)
    try await expectCleanConnection(client, server)
  }

  @Test(arguments: TransportUnderTest.allCases, WireBodyLengthTests.Change.allCases)
  func aSmallFileThatChangedFails(
    transport: TransportUnderTest,
    change: WireBodyLengthTests.Change
  ) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory.appending(path: "small-\(UUID()).txt")
    try Data("hello".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let body = try HTTPBody(contentsOf: file)
    switch change {
    case .grew: try (Data("hello".utf8) + Self.smuggled).write(to: file)
    case .shrank: try Data("he".utf8).write(to: file)
    }
    let client = try transport.makeClient()
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .post, url: server.url, body: body))
    }
    #expect(error?.kind == .bodyLengthMismatch)
    #expect(error?.declaredLength == 5)
    // Said of the file, not of a stream whose length the caller declared.
    #expect(error?.fileURL == file)
    #expect(error?.description.contains("file \"\(file.lastPathComponent)\"") == true)
    #expect(error?.description.contains("declare the exact length") == false)
    try await expectCleanConnection(client, server)
  }
  /// An empty file declares no body; if bytes appear in it before the request is sent, both
  /// clients refuse it as they refuse any file that changed, instead of sending it without them.
  @Test(arguments: TransportUnderTest.allCases)
  func anEmptyFileThatGrewFails(transport: TransportUnderTest) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory.appending(path: "empty-\(UUID()).txt")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let body = try HTTPBody(contentsOf: file)
    try Self.smuggled.write(to: file)
    let client = try transport.makeClient()
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .post, url: server.url, body: body))
    }
    #expect(error?.kind == .bodyLengthMismatch)
    #expect(error?.declaredLength == 0)
    #expect(error?.byteCount == Int64(Self.smuggled.count))
    #expect(error?.fileURL == file)
    try await expectCleanConnection(client, server)
  }
}

/// A file that grows while it is being sent: its length was read, the first bytes are on the
/// wire, and more bytes appear at its end.
@Suite struct WireGrowingFileTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aFileThatGrowsWhileSentNeverSmuggles(transport: TransportUnderTest) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory.appending(path: "growing-\(UUID()).txt")
    // Past the URLSession client's memory limit, and far past what a transport reads ahead.
    let declared = 5 << 20
    try Data(repeating: UInt8(ascii: "a"), count: declared).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let body = try HTTPBody(contentsOf: file)
    let grown = Mutex(false)
    let client = try transport.makeClient()
    let outcome: Result<Int, any Error>
    do {
      let (response, responseBody) = try await client.upload(
        HTTPRequest(method: .put, url: server.url, body: body)
      ) { _ in
        // At the first bytes sent, the file grows by a whole request.
        let first = grown.withLock { grown in
          defer { grown = true }
          return !grown
        }
        guard first, let handle = try? FileHandle(forWritingTo: file) else { return }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data("GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try? handle.close()
      }
      _ = try await responseBody.collect(upTo: 16)
      outcome = .success(response.status)
    } catch {
      outcome = .failure(error)
    }
    #expect(grown.withLock { $0 }, "the file never grew: the test proved nothing")
    let (response, next) = try await client.send(
      HTTPRequest(method: .get, url: server.url.appending(path: "after")))
    #expect(response.status == 200)
    #expect(try await next.collect(upTo: 16) == Data("ok".utf8))
    let requestLines = server.requests.map(\.requestLine)
    #expect(!requestLines.contains { $0.contains("/smuggled") }, "\(requestLines)")
    // Smuggled bytes would follow the declared ones: the end of each connection is enough (and
    // cheap, where the whole 5 MiB is not).
    let smuggledBytes = server.bytesByConnection.contains {
      $0.suffix(1 << 16).contains(Array("/smuggled".utf8))
    }
    #expect(!smuggledBytes)
    switch outcome {
    case .success:
      // Sent whole: exactly the declared bytes, as the body's length said.
      #expect(server.requests.first?.body.count == declared)
    case .failure(let error):
      #expect((error as? TransportFailure)?.kind == .bodyLengthMismatch, "\(error)")
    }
  }
}
