import EndpointCore
import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A client for middleware tests: records every request and answers with a closure that gets the
/// request and its index (0 for the first request sent).
final class ScriptedClient: HTTPClient {
  typealias Handler = @Sendable (HTTPRequest, Int) async throws -> (HTTPResponse, HTTPBody)

  private let handler: Handler
  private let log = Mutex<[HTTPRequest]>([])

  init(_ handler: @escaping Handler) {
    self.handler = handler
  }

  /// Answers every request with `status` and `body`.
  convenience init(status: Int, body: String = "") {
    self.init { _, _ in reply(status, body: body) }
  }

  /// The requests received, in order.
  var requests: [HTTPRequest] { log.withVisibleLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    let index = log.withVisibleLock { log in
      log.append(request)
      return log.count - 1
    }
    return try await handler(request, index)
  }
}

/// A response with an in-memory body.
func reply(
  _ status: Int,
  headers: [(String, String)] = [],
  body: String = ""
) -> (HTTPResponse, HTTPBody) {
  var fields = HTTPFields()
  for (name, value) in headers { try? fields.append(value, for: name) }
  return (HTTPResponse(status: status, headerFields: fields), HTTPBody(body))
}

/// A URL for tests; the literal is valid, so a failure here is a test bug.
func testURL(_ string: String = "https://api.example.com/items") -> URL {
  guard let url = URL(string: string) else {
    preconditionFailure("invalid test URL \(string)")
  }
  return url
}

/// A value several tasks can change; for counters and recordings in tests.
final class Recorder<Value: Sendable>: Sendable {
  private let storage: Mutex<Value>

  init(_ value: Value) {
    storage = Mutex(value)
  }

  var value: Value { storage.withVisibleLock { $0 } }

  func update<Result: Sendable>(_ change: @Sendable (inout Value) -> Result) -> Result {
    storage.withVisibleLock { change(&$0) }
  }
}

/// Records the waits a ``RetryMiddleware`` asks for instead of sleeping.
final class SleepRecorder: Sendable {
  private let recorder = Recorder<[Duration]>([])

  var delays: [Duration] { recorder.value }

  var sleep: @Sendable (Duration) async throws -> Void {
    { [recorder] delay in recorder.update { $0.append(delay) } }
  }
}

/// Chunks delivered one by one, recording whether the consumer read to the end.
struct RecordingChunks: AsyncSequence, Sendable {
  typealias Element = Data

  let chunks: [String]
  let failure: (any Error)?
  let finished: Recorder<Bool>

  init(_ chunks: [String], failingWith failure: (any Error)? = nil) {
    self.chunks = chunks
    self.failure = failure
    finished = Recorder(false)
  }

  /// A streamed body over these chunks, with its length known.
  var body: HTTPBody {
    HTTPBody(self, length: Int64(chunks.reduce(0) { $0 + $1.utf8.count }))
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(chunks: chunks[...], failure: failure, finished: finished)
  }

  struct Iterator: AsyncIteratorProtocol {
    var chunks: ArraySlice<String>
    let failure: (any Error)?
    let finished: Recorder<Bool>

    mutating func next() async throws -> Data? {
      if let chunk = chunks.popFirst() { return Data(chunk.utf8) }
      if let failure { throw failure }
      finished.update { $0 = true }
      return nil
    }
  }
}

/// A one-shot signal: `wait()` returns once `open()` was called, before or after.
final class Gate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Void.self)
  }

  func open() {
    continuation.yield()
    continuation.finish()
  }

  func wait() async {
    for await _ in stream { return }
  }
}

/// Holds arriving tasks until `count` of them are waiting, then lets them all go.
actor Barrier {
  private let count: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private var released = false

  init(count: Int) {
    self.count = count
  }

  func arrive() async {
    if released { return }
    await withCheckedContinuation { continuation in
      waiting.append(continuation)
      if waiting.count == count {
        released = true
        for waiter in waiting { waiter.resume() }
        waiting.removeAll()
      }
    }
  }
}

struct TestError: Error, Equatable {
  let name: String
}
