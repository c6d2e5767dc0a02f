import EndpointCore
import EndpointKernel
import EndpointPrimitives
import Synchronization
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A URL from a literal the test knows is valid; fails the test instead of crashing.
func makeURL(
  _ text: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> URL {
  try #require(URL(string: text), "not a URL: \(text)", sourceLocation: sourceLocation)
}

/// Bytes of UTF-8 text.
func bytes(_ text: String) -> Data {
  Data(text.utf8)
}

/// Text of UTF-8 bytes, for comparing bodies.
func text(_ data: Data) -> String {
  String(decoding: data, as: UTF8.self)
}

/// A request body for redirect tests: bytes in memory.
struct TestHopBody: HopBody, Equatable {
  var bytes = Data()

  static var none: TestHopBody { TestHopBody() }
  var mayHaveBytes: Bool { !bytes.isEmpty }
}

/// A request as a transport keeps it, with a body in memory.
typealias TestHop = RedirectHop<TestHopBody>

/// A response head with the given status and fields.
func response(
  _ status: Int = 200,
  _ fields: [(String, String)] = [],
  url: URL? = nil
) throws -> HTTPResponse {
  HTTPResponse(status: status, headerFields: try HTTPFields(fields), url: url)
}

/// A tiny client for the tests: answers every request with a closure and records the requests.
final class StubClient: HTTPClient {
  typealias Handler = @Sendable (HTTPRequest) async throws -> (HTTPResponse, HTTPBody)

  private let handler: Handler
  private let recorded = Mutex<[HTTPRequest]>([])

  /// The requests sent so far, in order.
  var requests: [HTTPRequest] { recorded.withVisibleLock { $0 } }

  init(handler: @escaping Handler) {
    self.handler = handler
  }

  /// Answers every request with `status`, `fields` and `body`.
  convenience init(status: Int = 200, fields: [(String, String)] = [], body: HTTPBody = .empty) {
    let fields = try? HTTPFields(fields)
    self.init { request in
      (HTTPResponse(status: status, headerFields: fields ?? HTTPFields(), url: request.url), body)
    }
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    recorded.withVisibleLock { $0.append(request) }
    return try await handler(request)
  }
}

/// A thread-safe list of events, for checking the order in which things happened.
final class EventLog: Sendable {
  private let storage = Mutex<[String]>([])

  var events: [String] { storage.withVisibleLock { $0 } }

  func record(_ event: String) {
    storage.withVisibleLock { $0.append(event) }
  }
}

/// An asynchronous sequence of chunks made from an array, for stream bodies.
struct Chunks: AsyncSequence, Sendable {
  typealias Element = Data

  let chunks: [Data]
  /// When set, thrown after the chunks instead of ending.
  var failure: TestFailure?

  init(_ chunks: [String], failure: TestFailure? = nil) {
    self.chunks = chunks.map { Data($0.utf8) }
    self.failure = failure
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(chunks: chunks[...], failure: failure)
  }

  struct Iterator: AsyncIteratorProtocol {
    var chunks: ArraySlice<Data>
    let failure: TestFailure?

    mutating func next() async throws -> Data? {
      if let chunk = chunks.popFirst() { return chunk }
      if let failure { throw failure }
      return nil
    }
  }
}

/// An error the tests throw on purpose.
struct TestFailure: Error, Equatable {
  let message: String
}
