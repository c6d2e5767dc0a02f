import EndpointKernel
import Foundation
import Synchronization
import Testing

@testable import EndpointCurl

/// Streamed request bodies go out as the stream gives them, never wholly in memory: chunked
/// without a declared length, with `Content-Length` with one, and never more than the stream
/// buffer ahead of what libcurl sent.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct StreamedUploadTests {
  @Test func manyChunksOfUnknownLengthArriveWholeAndInOrderInChunkedEncoding() async throws {
    let client = try CurlHTTPClient()
    let parts = (0..<300).map { Data("part-\($0);".utf8) }
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(LazyChunks { $0 < parts.count ? parts[$0] : nil })
    )
    let progress = Recorder<TransferProgress>()
    let (_, body) = try await client.upload(request) { progress.append($0) }
    let echo = try jsonObject(try await body.collect(upTo: 1 << 20))
    #expect(try echoedBody(echo) == parts.reduce(Data(), +))
    let headers = try echoedHeaders(echo)
    #expect(headers.contains { $0 == ("transfer-encoding", "chunked") })
    #expect(!headers.contains { $0.0 == "content-length" })
    #expect(!headers.contains { $0.0 == "content-type" })
    let last = try #require(progress.values.last)
    #expect(
      last == TransferProgress(completed: Int64(parts.reduce(0) { $0 + $1.count }), expected: nil))
    #expect(try await client.waitForIdleHandles())
  }

  @Test func aDeclaredLengthIsSentAsContentLength() async throws {
    let client = try CurlHTTPClient()
    let parts = (0..<50).map { Data(repeating: UInt8($0), count: 1000) }
    let request = HTTPRequest(
      method: .put,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(LazyChunks { $0 < parts.count ? parts[$0] : nil }, length: 50_000)
    )
    let progress = Recorder<TransferProgress>()
    let (_, body) = try await client.upload(request) { progress.append($0) }
    let echo = try jsonObject(try await body.collect(upTo: 1 << 20))
    #expect(echo["method"] as? String == "PUT")
    #expect(try echoedBody(echo) == parts.reduce(Data(), +))
    let headers = try echoedHeaders(echo)
    #expect(headers.contains { $0 == ("content-length", "50000") })
    #expect(!headers.contains { $0.0 == "transfer-encoding" })
    #expect(progress.values.last == TransferProgress(completed: 50_000, expected: 50_000))
  }

  @Test(arguments: [false, true])
  func httpbinReceivesAStreamedBody(declaringItsLength: Bool) async throws {
    let client = try CurlHTTPClient()
    let parts = ["streamed ", "to ", "httpbin"].map { Data($0.utf8) }
    let chunks = LazyChunks { $0 < parts.count ? parts[$0] : nil }
    var request = HTTPRequest(
      method: .post,
      url: try TestServers.httpbin.adding("/post"),
      body: HTTPBody(chunks, length: declaringItsLength ? 19 : nil)
    )
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    #expect(json["data"] as? String == "streamed to httpbin")
  }

  @Test(arguments: [nil, 4 * 1024 * 1024] as [Int64?])
  func aStreamIsSentOverHTTPS(length: Int64?) async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try CurlHTTPClient(
      configuration: .init(
        tls: .init(caBundlePath: try TestServers.testCAPath),
        metricsObserver: { recorded.append($0) }
      )
    )
    let piece = Data(repeating: 0x61, count: 64 * 1024)
    let chunks = LazyChunks { index -> Data? in
      guard index < 64 else { return nil }
      // Now and then the stream is slower than the connection: the stream pauses and resumes.
      if index % 16 == 8 { try await Task.sleep(for: .milliseconds(20)) }
      return piece
    }
    var request = HTTPRequest(
      method: .post,
      url: try TestServers.https.adding("/post"),
      body: HTTPBody(chunks, length: length)
    )
    try request.headerFields.append("text/plain", for: "Content-Type")
    let expectedVersion = CurlLibrary.spinsOnHTTP2Uploads ? "1.1" : "2"
    if length == nil, expectedVersion == "1.1" {
      // Sent in chunks over HTTP/1.1, which httpbin under Hypercorn refuses with a 501 that
      // says so: proof of how the body went. Chunked bodies reaching a server that takes them
      // are covered over plain http.
      let (response, body) = try await client.send(request)
      let text = String(decoding: try await body.collect(upTo: 1 << 20), as: UTF8.self)
      #expect(response.status == 501)
      #expect(text.contains("Chunked requests are not supported"))
      #expect(recorded.values.first?.httpVersion == "1.1")
      return
    }
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    // Before libcurl 8.0 a body that may outgrow HTTP/2's first flow-control window goes over
    // HTTP/1.1 (libcurl busy-polls while such an upload waits; see CurlTransfer).
    #expect(recorded.values.first?.httpVersion == expectedVersion)
    let headers = try #require(json["headers"] as? [String: String])
    if let length {
      #expect(headers["Content-Length"] == String(length))
      #expect((json["data"] as? String)?.utf8.count == Int(length))
    } else {
      // HTTP/2 frames the body itself; httpbin, behind Hypercorn, reads no body without a
      // Content-Length, so only the request's completion can be checked.
      #expect(headers["Content-Length"] == nil)
    }
  }

  @Test func aSmallStreamWithItsLengthStaysOnHTTP2() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try CurlHTTPClient(
      configuration: .init(
        tls: .init(caBundlePath: try TestServers.testCAPath),
        metricsObserver: { recorded.append($0) }
      )
    )
    // 48 KiB: within HTTP/2's first flow-control window, so never waiting on it.
    let piece = Data(repeating: 0x62, count: 16 * 1024)
    let chunks = LazyChunks { index -> Data? in index < 3 ? piece : nil }
    var request = HTTPRequest(
      method: .post,
      url: try TestServers.https.adding("/post"),
      body: HTTPBody(chunks, length: 48 * 1024)
    )
    try request.headerFields.append("text/plain", for: "Content-Type")
    let (response, json) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    #expect(recorded.values.first?.httpVersion == "2")
    #expect((json["data"] as? String)?.utf8.count == 48 * 1024)
  }

  @Test func aLargeUploadOverHTTPSDoesNotSpinTheLoop() async throws {
    let client = try CurlHTTPClient(
      configuration: .init(tls: .init(caBundlePath: try TestServers.testCAPath))
    )
    let body = Data(repeating: 0x63, count: 4 * 1024 * 1024)
    var request = HTTPRequest(
      method: .post,
      url: try TestServers.https.adding("/post"),
      body: HTTPBody(body)
    )
    try request.headerFields.append("application/octet-stream", for: "Content-Type")
    let waitsBefore = client.pollerWaits
    let (response, responseBody) = try await client.send(request)
    _ = try await responseBody.collect(upTo: 64 * 1024 * 1024)
    let waits = client.pollerWaits - waitsBefore
    #expect(response.status == 200)
    // About 75 waits here; libcurl's busy loop over HTTP/2 (before 8.0) makes it 7,000 and more.
    #expect(waits < 1_000, "the loop waited \(waits) times for one 4 MiB upload")
  }

  @Test(.timeLimit(.minutes(2)))
  func aLargeStreamNeverRunsMoreThanTheBufferAheadOfTheConnection() async throws {
    let bufferSize = 256 * 1024
    let chunkSize = 64 * 1024
    let total = 64 * 1024 * 1024
    let client = try CurlHTTPClient(configuration: .init(streamBufferSize: bufferSize))
    let pattern = PatternBytes()
    let sent = Gauge()
    let mostAhead = Gauge()
    let mostWaiting = Gauge()
    // Each chunk is made only when the client asks for it; at that moment the client holds
    // what was made before minus what libcurl took (the progress lags it by one read at most).
    let chunks = LazyChunks { index -> Data? in
      let offset = index * chunkSize
      guard offset < total else { return nil }
      mostAhead.raise(to: offset - sent.value)
      mostWaiting.raise(to: client.bytesWaitingToBeSent)
      return pattern.bytes(at: offset, count: chunkSize)
    }
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(chunks)
    )
    let (response, body) = try await client.upload(request) { progress in
      sent.value = Int(progress.completed)
    }
    #expect(response.status == 200)
    let echoed = try await pattern.verifyEchoedBody(body)
    #expect(echoed == Int64(total))
    #expect(sent.value == total)
    let oneRead = 64 * 1024  // libcurl's upload buffer
    #expect(mostAhead.value <= bufferSize + oneRead)
    #expect(mostWaiting.value < bufferSize)
    #expect(mostWaiting.value > 0)
    #expect(client.bytesWaitingToBeSent == 0)
  }

  @Test func aStreamThatThrowsMidwayFailsTheRequestWithItsError() async throws {
    let client = try CurlHTTPClient()
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(
        LazyChunks { index in
          guard index < 3 else {
            // The transfer is paused, waiting for this chunk, when the stream fails.
            try await Task.sleep(for: .milliseconds(50))
            throw ExportFailed(row: index)
          }
          return Data(repeating: 0x61, count: 20_000)
        }
      )
    )
    let error = try await #require(throws: ExportFailed.self) {
      _ = try await client.send(request)
    }
    #expect(error == ExportFailed(row: 3))
    #expect(try await client.waitForIdleHandles())
    #expect(try await eventually { client.bytesWaitingToBeSent == 0 })
  }

  @Test func cancellingMidUploadThrowsCancellationErrorAndStopsTheStream() async throws {
    let client = try CurlHTTPClient()
    let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
    let streamEnded = Gauge()
    continuation.onTermination = { _ in streamEnded.value = 1 }
    continuation.yield(Data(repeating: 0x62, count: 100_000))
    let sent = Gauge()
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(chunks)
    )
    let task = Task {
      try await client.upload(request) { sent.value = Int($0.completed) }
    }
    // The stream never ends: the upload waits for more once libcurl has taken the first chunk.
    #expect(try await eventually { sent.value == 100_000 })
    task.cancel()
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    #expect(try await client.waitForIdleHandles())
    #expect(client.liveEasyHandles == client.pooledEasyHandles)
    #expect(try await eventually { streamEnded.value == 1 })
    #expect(try await eventually { client.bytesWaitingToBeSent == 0 })
  }

  @Test(arguments: [nil, 0] as [Int64?])
  func anEmptyStreamSendsAnEmptyBody(length: Int64?) async throws {
    let client = try CurlHTTPClient()
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(LazyChunks { _ in nil }, length: length)
    )
    let (response, echo) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    #expect(echo["method"] as? String == "POST")
    #expect(try echoedBody(echo).isEmpty)
    #expect(try await client.waitForIdleHandles())
  }

  @Test func aSlowStreamIsSentWithoutSpinningTheLoop() async throws {
    let client = try CurlHTTPClient()
    let count = 10
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(
        LazyChunks { index in
          guard index < count else { return nil }
          try await Task.sleep(for: .milliseconds(30))
          return Data("slow-\(index);".utf8)
        }
      )
    )
    let waitsBefore = client.pollerWaits
    let (_, echo) = try await sendForJSON(client, request)
    let waits = client.pollerWaits - waitsBefore
    let expected = (0..<count).map { "slow-\($0);" }.joined()
    #expect(try echoedBody(echo) == Data(expected.utf8))
    // A loop that polled a paused upload would wait thousands of times in these 300 ms; a
    // paused one wakes a few times per chunk.
    #expect(waits < 20 * count, "the loop waited \(waits) times")
  }

  @Test func aSlowStreamDoesNotTripTheIdleTimeout() async throws {
    // The server is silent because it waits for the body: the wait is the stream's, not its.
    // Generous next to the server's answer times (the Python server shares the machine with
    // the other tests), short next to the stream's pause.
    let client = try CurlHTTPClient(configuration: .init(idleTimeout: .seconds(1)))
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(
        LazyChunks { index in
          guard index < 2 else { return nil }
          if index == 1 { try await Task.sleep(for: .milliseconds(2500)) }
          return Data("part-\(index);".utf8)
        }
      )
    )
    let (_, echo) = try await sendForJSON(client, request)
    #expect(try echoedBody(echo) == Data("part-0;part-1;".utf8))
  }

  @Test(.timeLimit(.minutes(1)))
  func streamedUploadsCancelledAtRandomMomentsLeaveNothingBehind() async throws {
    let client = try CurlHTTPClient(configuration: .init(streamBufferSize: 64 * 1024))
    let url = try TestServers.fault.adding("/echo")
    let all = await outcomesOfCancelling(300, atMost: 8) { _ in
      .microseconds(Int.random(in: 0...20000))
    } _: { _ in
      let chunks = LazyChunks { chunk -> Data? in
        guard chunk < 32 else { return nil }
        if chunk % 8 == 7 { await Task.yield() }
        return Data(repeating: UInt8(chunk), count: 8 * 1024)
      }
      let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks))
      let (response, body) = try await client.send(request)
      _ = try await body.collect(upTo: 1 << 22)
      return response.status
    }
    let others = all.filter { $0 != "result" && $0 != "cancelled" }
    #expect(others.isEmpty, "unexpected errors: \(others.prefix(5))")
    #expect(all.count == 300)
    #expect(all.contains("cancelled"))
    #expect(try await client.waitForIdleHandles())
    #expect(try await eventually { client.bytesWaitingToBeSent == 0 })
  }

  @Test func aStreamShorterThanItsDeclaredLengthFails() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let chunks = LazyChunks { $0 < 2 ? Data(repeating: 0x63, count: 30) : nil }
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks, length: 100))
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(request)
    }
    #expect(error.kind == .bodyLengthMismatch)
    #expect(error.declaredLength == 100)
    #expect(error.byteCount == 60)
    #expect(error.description.contains("ended after 60 bytes"))
    #expect(try await client.waitForIdleHandles())
  }

  @Test func aStreamLongerThanItsDeclaredLengthFails() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let chunks = LazyChunks { $0 < 5 ? Data(repeating: 0x63, count: 60) : nil }
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks, length: 100))
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(request)
    }
    #expect(error.kind == .bodyLengthMismatch)
    #expect(error.declaredLength == 100)
    #expect(error.byteCount == 120)
    #expect(try await client.waitForIdleHandles())
  }

  @Test func aStreamedBodyAnsweredWith401IsReturned() async throws {
    let client = try CurlHTTPClient()
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/auth-challenge"),
      body: HTTPBody(LazyChunks { $0 < 4 ? Data(repeating: 0x64, count: 5000) : nil })
    )
    let (response, body) = try await client.send(request)
    #expect(response.status == 401)
    #expect(response.headerFields["WWW-Authenticate"]?.hasPrefix("Basic") == true)
    _ = try await body.collect(upTo: 1 << 16)
    #expect(try await client.waitForIdleHandles())
  }

  @Test(arguments: [307, 308])
  func aStreamedBodyIsNotSentAgainOnARedirectThatKeepsIt(status: Int) async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=\(status)")
    let request = HTTPRequest(
      method: .put,
      url: url,
      body: HTTPBody(LazyChunks { $0 < 3 ? Data("chunk".utf8) : nil }, length: 15)
    )
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(request)
    }
    #expect(error.kind == .redirectBodyNotReplayable)
    #expect(error.description.contains("\(status) redirect to"))
    #expect(try await client.waitForIdleHandles())
  }
}

extension StreamedUploadTests {
  /// A stream that gives one chunk, then waits until it is cancelled; `waiting` is 1 while it
  /// waits.
  private static func stalledStream(waiting: Gauge) -> LazyChunks {
    LazyChunks { index in
      guard index > 0 else { return Data("first".utf8) }
      waiting.value = 1
      defer { waiting.value = 0 }
      try await Task.sleep(for: .seconds(3600))
      return nil
    }
  }

  @Test(.timeLimit(.minutes(1)), arguments: [413, 303])
  func aServerAnsweringBeforeTheBodyEndsIsHeardAtOnce(status: Int) async throws {
    // The stream will not give more; the server answers without reading the body. The answer
    // must come back now, not when the stream next gives something (here: never).
    let client = try CurlHTTPClient(configuration: .init(idleTimeout: .seconds(30)))
    let waiting = Gauge()
    let url = try TestServers.fault.adding("/early?status=\(status)&location=/echo")
    let request = HTTPRequest(
      method: .post,
      url: url,
      body: HTTPBody(Self.stalledStream(waiting: waiting))
    )
    let started = ContinuousClock.now
    let (response, body) = try await client.send(request)
    _ = try await body.collect(upTo: 1 << 16)
    let waited = ContinuousClock.now - started
    if status == 303 {
      // Followed with a GET, without the body.
      #expect(response.status == 200)
      #expect(response.url?.path == "/echo")
    } else {
      #expect(response.status == status)
    }
    #expect(waited < .seconds(15), "the answer took \(waited)")
    #expect(try await client.waitForIdleHandles())
    // The transfer is over: a stream still waiting for its next chunk is cancelled.
    #expect(try await eventually { waiting.value == 0 })
  }

  @Test func aPausedUploadCountsAsPausedUntilTheLoopResumesIt() async throws {
    // The idle timeout skips a transfer while its upload waits for the stream. A chunk that
    // arrives must not end that wait by itself: only the loop, as it resumes the transfer and
    // marks it active, may. Otherwise a timeout check in between sees a transfer that is
    // neither paused nor recently active, and fails it.
    let client = try CurlHTTPClient()
    let url = try #require(URL(string: "http://127.0.0.1:9/unused"))
    let upload = StreamedUpload(
      declaredLength: nil,
      capacity: 1024,
      method: .post,
      url: url,
      loop: client.loop
    )
    var scratch = [UInt8](repeating: 0, count: 64)
    let first = scratch.withUnsafeMutableBytes { upload.read(into: $0.baseAddress!, room: 64) }
    guard case .pause = first.0 else {
      Issue.record("an empty buffer must pause the transfer")
      return
    }
    #expect(upload.waitsForProducer)
    let hop = Hop(
      method: .post,
      url: url,
      headerFields: HTTPFields(),
      body: .stream(upload),
      bodyIsReplayable: false
    )
    let options = TransferOptions(
      idleTimeout: .seconds(1),
      deadline: nil,
      redirectLimit: nil,
      maximumResponseSize: nil,
      bodyBufferLimit: 1024,
      inlineBodyLimit: 1024
    )
    // Never started: the loop ignores its wake-up, as it would one it has not reached yet.
    let transfer = CurlTransfer(hop: hop, options: options, mode: .stream, loop: client.loop)
    upload.start(reading: HTTPBody(LazyChunks { $0 == 0 ? Data("late".utf8) : nil }), for: transfer)
    #expect(try await eventually { client.bytesWaitingToBeSent == 4 })
    #expect(upload.waitsForProducer, "the chunk alone ended the pause")
    upload.loopResumes()
    #expect(!upload.waitsForProducer)
    let next = scratch.withUnsafeMutableBytes { upload.read(into: $0.baseAddress!, room: 64) }
    guard case .bytes(let count) = next.0 else {
      Issue.record("the buffered chunk must be read")
      return
    }
    #expect(count == 4)
    upload.close()
  }

  @Test func aRequestCancelledBeforeItStartsNeverReadsTheStream() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let reads = Gauge()
    let task = Task {
      // Cancelled before it sends: the client throws without touching the body.
      withUnsafeCurrentTask { $0?.cancel() }
      let chunks = LazyChunks { index in
        reads.raise(to: index + 1)
        return index < 3 ? Data("never".utf8) : nil
      }
      _ = try await client.send(HTTPRequest(method: .post, url: url, body: HTTPBody(chunks)))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    try await Task.sleep(for: .milliseconds(50))
    #expect(reads.value == 0)
    #expect(try await client.waitForIdleHandles())
  }

  @Test func aStreamDeclaredEmptyThatGivesBytesFails() async throws {
    let client = try CurlHTTPClient()
    let request = HTTPRequest(
      method: .post,
      url: try TestServers.fault.adding("/echo"),
      body: HTTPBody(LazyChunks { $0 == 0 ? Data("surprise".utf8) : nil }, length: 0)
    )
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(request)
    }
    #expect(error.kind == .bodyLengthMismatch)
    #expect(error.declaredLength == 0)
    #expect(error.byteCount == 8)
  }
}

/// A failure of the test's own stream.
private struct ExportFailed: Error, Equatable {
  let row: Int
}

/// Chunks made one at a time, only when the client asks for the next one.
private struct LazyChunks: AsyncSequence, Sendable {
  typealias Element = Data

  let make: @Sendable (Int) async throws -> Data?

  init(_ make: @escaping @Sendable (Int) async throws -> Data?) {
    self.make = make
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(make: make)
  }

  struct Iterator: AsyncIteratorProtocol {
    let make: @Sendable (Int) async throws -> Data?
    var index = 0

    mutating func next() async throws -> Data? {
      defer { index += 1 }
      return try await make(index)
    }
  }
}

/// A body whose byte at offset `i` is `i % 251`, made and checked a slice at a time, so a
/// large body is never whole in memory on either side of the test.
private struct PatternBytes: Sendable {
  private static let period = 251
  private static let longestSlice = 64 * 1024
  private let bytes: Data

  init() {
    bytes = Data((0..<(Self.longestSlice + Self.period)).map { UInt8($0 % Self.period) })
  }

  /// The `count` bytes at `offset` (at most 64 KiB).
  func bytes(at offset: Int, count: Int) -> Data {
    let start = offset % Self.period
    return bytes[start..<start + count]
  }

  /// Reads `/echo`'s answer as it streams in, decodes its `body_base64` a piece at a time and
  /// checks each piece against the pattern; returns the number of bytes checked.
  func verifyEchoedBody(_ body: HTTPBody) async throws -> Int64 {
    let marker = Data("\"body_base64\": \"".utf8)
    var head = Data()
    var text = Data()
    var found = false
    var checked = 0
    for try await chunk in body {
      if found {
        text.append(chunk)
      } else {
        head.append(chunk)
        guard let range = head.range(of: marker) else { continue }
        text = head.subdata(in: range.upperBound..<head.endIndex)
        head = Data()
        found = true
      }
      // The text ends with `"}`: keep two characters back until the end.
      let usable = (text.count - 2) / 4 * 4
      if usable > 0 {
        try check(text.prefix(usable), at: &checked)
        text = text.subdata(in: text.startIndex + usable..<text.endIndex)
      }
    }
    try #require(found, "no body_base64 in the answer")
    try #require(text.suffix(2) == Data("\"}".utf8), "the answer does not end the JSON")
    try check(text.dropLast(2), at: &checked)
    return Int64(checked)
  }

  private func check(_ base64: Data, at offset: inout Int) throws {
    let decoded = try #require(Data(base64Encoded: base64), "body_base64 is not base64")
    var position = decoded.startIndex
    while position < decoded.endIndex {
      let count = min(Self.longestSlice, decoded.endIndex - position)
      guard decoded[position..<position + count] == bytes(at: offset, count: count) else {
        Issue.record(
          "the body differs from what was sent within bytes \(offset)..<\(offset + count)")
        throw PatternMismatch()
      }
      offset += count
      position += count
    }
  }

  private struct PatternMismatch: Error {}
}

/// An integer set from one thread and read from another.
private final class Gauge: Sendable {
  private let atomic = Atomic<Int>(0)

  var value: Int {
    get { atomic.load(ordering: .relaxed) }
    set { atomic.store(newValue, ordering: .relaxed) }
  }

  /// Raises the value to `candidate` if that is larger.
  func raise(to candidate: Int) {
    var current = atomic.load(ordering: .relaxed)
    while candidate > current {
      let (exchanged, original) = atomic.compareExchange(
        expected: current, desired: candidate, ordering: .relaxed)
      if exchanged { return }
      current = original
    }
  }
}

/// Polls `condition` every 10 ms for up to `limit`; returns whether it became true. The bound
/// is wide: on a loaded machine a progress report or a stream's end can lag by seconds.
private func eventually(
  within limit: Duration = .seconds(30),
  _ condition: () -> Bool
) async throws -> Bool {
  let start = ContinuousClock.now
  while !condition() {
    if ContinuousClock.now - start > limit { return false }
    try await Task.sleep(for: .milliseconds(10))
  }
  return true
}
