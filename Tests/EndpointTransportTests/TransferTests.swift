import Foundation
import Testing

@testable import EndpointTransport

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TransferTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aLargeBodyIsDownloadedToTheDestinationWithProgress(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("large.bin")
      let progress = Recorder<TransferProgress>()
      let url = try TestServers.fault.adding("/large")
      let response = try await client.download(
        HTTPRequest(method: .get, url: url),
        to: destination
      ) { progress.append($0) }
      #expect(response.status == 200)
      let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
      #expect(size == 52_428_800)
      #expect(try files(in: directory) == ["large.bin"])
      let reports = progress.values
      #expect(reports.count > 1)
      #expect(reports.last == TransferProgress(completed: 52_428_800, expected: 52_428_800))
      #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completed <= $1.completed })
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aChunkedDownloadReportsBytesWithNoExpectedLength(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("chunks.txt")
      let progress = Recorder<TransferProgress>()
      let url = try TestServers.fault.adding("/slow-body?chunks=5&interval_ms=20")
      try await client.download(HTTPRequest(method: .get, url: url), to: destination) {
        progress.append($0)
      }
      let size = try Data(contentsOf: destination).count
      let reports = progress.values
      #expect(!reports.isEmpty)
      #expect(reports.allSatisfy { $0.expected == nil && $0.fractionCompleted == nil })
      #expect(reports.last?.completed == Int64(size))
      #expect(size == "chunk-0\n".utf8.count * 5)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDownloadReplacesAnExistingFile(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("file.bin")
      try Data("old".utf8).write(to: destination)
      let url = try TestServers.fault.adding("/large?bytes=1000")
      try await client.download(HTTPRequest(method: .get, url: url), to: destination)
      #expect(try Data(contentsOf: destination).count == 1000)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aCancelledDownloadLeavesNoFileBehind(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("cancelled.bin")
      let url = try TestServers.fault.adding("/stall?after=500000")
      let started = Recorder<TransferProgress>()
      let task = Task {
        try await client.download(HTTPRequest(method: .get, url: url), to: destination) {
          started.append($0)
        }
      }
      while started.values.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(try files(in: directory).isEmpty)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aFailedDownloadLeavesNoFileBehind(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(idleTimeout: .milliseconds(300))
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("stalled.bin")
      let url = try TestServers.fault.adding("/stall?after=100000")
      let idle = await #expect(throws: TransportFailure.self) {
        try await client.download(HTTPRequest(method: .get, url: url), to: destination)
      }
      #expect(idle?.kind == .idleTimeout)
      let truncated = try TestServers.fault.adding("/truncated")
      // The default idle timeout here: a busy machine may take longer than 0.3 s to answer.
      let patient = try transport.makeClient()
      let error = await failure {
        try await patient.download(HTTPRequest(method: .get, url: truncated), to: destination)
      }
      transport.expectConnectionFailure(try #require(error), url: truncated)
      #expect(try files(in: directory).isEmpty)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUnacceptedStatusIsNotSavedAndThrowsUnexpectedResponse(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("missing.bin")
      let endpoint = Endpoint(
        .get, url: try TestServers.httpbin.adding("/status/404"), parser: .data)
      let error = try await #require(throws: UnexpectedResponse.self) {
        try await client.download(endpoint, to: destination)
      }
      #expect(error.status == 404)
      #expect(try files(in: directory).isEmpty)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDownloadPastTheMaximumSizeIsAbortedAndRemoved(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient(maximumResponseSize: 10_000_000)
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("too-large.bin")
      let url = try TestServers.fault.adding("/large")
      let failure = await #expect(throws: TransportFailure.self) {
        try await client.download(HTTPRequest(method: .get, url: url), to: destination)
      }
      #expect(failure?.kind == .responseTooLarge)
      #expect(try files(in: directory).isEmpty)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDestinationInAMissingDirectoryFailsWithDownloadFileError(transport: TransportUnderTest)
    async throws
  {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let destination = directory.appendingPathComponent("missing/file.bin")
      let url = try TestServers.fault.adding("/large?bytes=1000")
      let error = try await #require(throws: TransportFailure.self) {
        try await client.download(HTTPRequest(method: .get, url: url), to: destination)
      }
      #expect(error.kind == .downloadFile)
      #expect(error.fileURL == destination)
      #expect(try files(in: directory).isEmpty)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUploadFromMemoryReportsProgressAndArrivesWhole(transport: TransportUnderTest) async throws
  {
    let client = try transport.makeClient()
    let payload = Data((0..<300_000).map { UInt8($0 % 251) })
    let url = try TestServers.fault.adding("/echo")
    let progress = Recorder<TransferProgress>()
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(payload))
    let (_, body) = try await client.upload(request) { progress.append($0) }
    let echo = try jsonObject(try await body.collect(upTo: 1 << 22))
    #expect(try echoedBody(echo) == payload)
    #expect(progress.values.last == TransferProgress(completed: 300_000, expected: 300_000))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUploadFromAFileIsSentFromDisk(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    try await withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("upload.bin")
      let payload = Data((0..<500_000).map { UInt8($0 % 253) })
      try payload.write(to: file)
      let progress = Recorder<TransferProgress>()
      let endpoint = Endpoint(
        .put,
        url: try TestServers.fault.adding("/echo"),
        payload: try .file(file),
        parser: .data
      )
      let echo = try jsonObject(try await client.upload(endpoint) { progress.append($0) })
      #expect(echo["method"] as? String == "PUT")
      #expect(try echoedBody(echo) == payload)
      #expect(progress.values.last?.completed == 500_000)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aStreamedBodyIsSentWhole(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    let chunks = AsyncStream<Data> { continuation in
      for index in 0..<5 { continuation.yield(Data("part-\(index);".utf8)) }
      continuation.finish()
    }
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks))
    let (_, echo) = try await sendForJSON(client, request)
    #expect(try echoedBody(echo) == Data("part-0;part-1;part-2;part-3;part-4;".utf8))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aLargeStreamedBodyIsSentWhole(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    let piece = Data(repeating: 0x61, count: 1024 * 1024)
    let chunks = AsyncStream<Data> { continuation in
      for _ in 0..<6 { continuation.yield(piece) }
      continuation.finish()
    }
    let before = try files(in: FileManager.default.temporaryDirectory)
      .filter { $0.hasPrefix("endpoint-upload-") }
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody(chunks))
    let (_, echo) = try await sendForJSON(client, request)
    #expect(try echoedBody(echo).count == 6 * 1024 * 1024)
    // The URLSession client spools a large stream to a temporary file first (curl sends it as
    // it comes); other tests may spool at the same time (theirs go when their transfers end),
    // but none of this one's files may remain.
    func newFiles() throws -> Set<String> {
      Set(
        try files(in: FileManager.default.temporaryDirectory)
          .filter { $0.hasPrefix("endpoint-upload-") }
      ).subtracting(before)
    }
    let start = ContinuousClock.now
    while try !newFiles().isEmpty, ContinuousClock.now - start < .seconds(5) {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(try newFiles().isEmpty)
  }
}
