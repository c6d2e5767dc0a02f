import EndpointCore
import EndpointPrimitives
import EndpointTesting
import Foundation
import Synchronization
import Testing

/// Uploads and downloads go through middleware and through the stub client, like every call.
@Suite struct TransferStubTests {
  private let api = URL(string: "https://api.example.com/")!

  private func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appending(path: "stub-download-\(UUID())")
  }

  @Test func aStubDownloadsAnAcceptedBodyToTheFile() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/report").reply(status: 200, text: "a,b\n1,2\n")
    let file = temporaryFile()
    defer { try? FileManager.default.removeItem(at: file) }
    let endpoint = Endpoint<Data>(.get, url: api.appending(path: "report"), parser: .data)
    let progress = Mutex<[Int64]>([])
    let response = try await stub.download(endpoint, to: file) { report in
      progress.withVisibleLock { $0.append(report.completed) }
    }
    #expect(response.status == 200)
    #expect(try String(contentsOf: file, encoding: .utf8) == "a,b\n1,2\n")
    #expect(progress.withVisibleLock { $0 } == [8])
  }

  @Test func aStubDownloadOfARejectedStatusLeavesTheFileAlone() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/report").reply(status: 404, text: "missing")
    let file = temporaryFile()
    try Data("old".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let endpoint = Endpoint<Data>(.get, url: api.appending(path: "report"), parser: .data)
    let error = await #expect(throws: UnexpectedResponse.self) {
      try await stub.download(endpoint, to: file)
    }
    #expect(error?.status == 404)
    #expect(try String(contentsOf: file, encoding: .utf8) == "old")
  }

  @Test func middlewareSeesDownloadsAndUploads() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/report").reply(status: 200, text: "data")
    stub.on(.post, "/upload").reply(status: 201, text: "ok")
    let seen = Mutex<[String]>([])
    let client = stub.with(
      ClosureMiddleware { request, next in
        var request = request
        try request.headerFields.set("Bearer t", for: "Authorization")
        seen.withVisibleLock { $0.append("\(request.method) \(request.url.path)") }
        return try await next(request)
      })
    let file = temporaryFile()
    defer { try? FileManager.default.removeItem(at: file) }
    try await client.download(
      Endpoint<Data>(.get, url: api.appending(path: "report"), parser: .data), to: file)
    let uploaded = try await client.upload(
      Endpoint<Data>(
        .post, url: api.appending(path: "upload"),
        payload: .data(Data("x".utf8), contentType: "text/plain"),
        parser: .data)
    ) { _ in }
    #expect(uploaded == Data("ok".utf8))
    #expect(seen.withVisibleLock { $0 } == ["GET /report", "POST /upload"])
    #expect(stub.requests.allSatisfy { $0.request.headerFields["Authorization"] == "Bearer t" })
  }

  @Test func aRetryMiddlewareRetriesADownloadThatGotA503() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/report").reply(status: 503, text: "busy").times(1)
    stub.on(.get, "/report").reply(status: 200, text: "fresh")
    let client = stub.with(RetryMiddleware(sleep: { _ in }))
    let file = temporaryFile()
    defer { try? FileManager.default.removeItem(at: file) }
    let response = try await client.download(
      Endpoint<Data>(.get, url: api.appending(path: "report"), parser: .data), to: file)
    #expect(response.status == 200)
    #expect(try String(contentsOf: file, encoding: .utf8) == "fresh")
  }

  @Test func aRecordingClientRecordsADownload() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/report").reply(status: 200, text: "rows")
    let recorder = RecordingClient(wrapping: stub)
    let file = temporaryFile()
    defer { try? FileManager.default.removeItem(at: file) }
    try await recorder.download(
      Endpoint<Data>(.get, url: api.appending(path: "report"), parser: .data), to: file)
    #expect(try String(contentsOf: file, encoding: .utf8) == "rows")
    #expect(recorder.exchanges.count == 1)
    #expect(recorder.exchanges.first?.request.url.path == "/report")
  }
}

/// Downloads through a coalescing client: each one writes its own file.
@Suite struct CoalescedDownloadTests {
  @Test func overlappingDownloadsOfOneURLEachWriteTheirFile() async throws {
    let api = URL(string: "https://api.example.com/")!
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/report").reply(
      StubResponse.text("a,b\n1,2\n").delayed(by: .milliseconds(300)))
    let client = stub.with(CoalescingMiddleware())
    let endpoint = Endpoint<Data>(.get, url: api.appending(path: "report"), parser: .data)
    let files = (0..<3).map { _ in
      FileManager.default.temporaryDirectory.appending(path: "coalesced-\(UUID()).csv")
    }
    defer { for file in files { try? FileManager.default.removeItem(at: file) } }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for file in files {
        group.addTask { _ = try await client.download(endpoint, to: file) }
      }
      try await group.waitForAll()
    }
    for file in files {
      #expect(try String(contentsOf: file, encoding: .utf8) == "a,b\n1,2\n")
    }
    #expect(stub.requests.count == 3)
  }
}
