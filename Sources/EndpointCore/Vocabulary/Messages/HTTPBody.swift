import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A message body: an asynchronous sequence of byte chunks with an optional known length.
///
/// Request and response bodies share this type. A body already in memory is the fast path:
/// ``collect(upTo:)`` returns it at once. A body read from a file can be read again, so it can be
/// retried or re-sent on a redirect; a body made from a stream can be read once.
///
/// ```swift
/// let (response, body) = try await client.send(request)
/// for try await chunk in body { consume(chunk) }
/// ```
public struct HTTPBody: AsyncSequence, Sendable {
  /// One chunk of bytes.
  public typealias Element = Data

  enum Storage: Sendable {
    case buffer(Data)
    case file(URL)
    case stream(StreamSource)
  }

  let storage: Storage

  /// The body's length in bytes, when it is known before reading it.
  public let length: Int64?

  /// Reads the response's trailer fields, which the transport sets as they arrive (see
  /// ``trailerFields``); a body that wraps another takes the original's.
  package var trailers: (@Sendable () -> HTTPFields?)? = nil

  /// The trailer fields a request body sends after its last chunk (see
  /// ``init(_:trailerFields:)``).
  package var requestTrailers: (@Sendable () -> HTTPFields)? = nil

  /// An empty body.
  public static let empty = HTTPBody(Data())

  /// Creates a body from bytes in memory.
  public init(_ data: Data) {
    storage = .buffer(data)
    length = Int64(data.count)
  }

  /// Creates a body from the UTF-8 bytes of `text`.
  public init(_ text: String) {
    self.init(Data(text.utf8))
  }

  /// Creates a body read from a file as it is sent; the length is the file's size.
  ///
  /// - Throws: ``InvalidRequest`` (`.body`) if the file does not exist or is not a regular file.
  public init(contentsOf fileURL: URL) throws(InvalidRequest) {
    storage = .file(fileURL)
    length = try FileReader.size(of: fileURL)
  }

  /// Creates a body from any asynchronous sequence of chunks. It can be read only once.
  ///
  /// - Parameters:
  ///   - sequence: the chunks, in order.
  ///   - length: the total number of bytes, if known; a negative length counts as unknown.
  public init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks, length: Int64? = nil)
  where Chunks.Element == Data {
    storage = .stream(StreamSource(sequence))
    self.length = length.flatMap { $0 >= 0 ? $0 : nil }
  }

  /// The bytes, when the body is held in memory; `nil` for file and stream bodies.
  public var data: Data? {
    if case .buffer(let data) = storage { return data }
    return nil
  }

  /// The file the body is read from, for file bodies.
  public var fileURL: URL? {
    if case .file(let url) = storage { return url }
    return nil
  }

  /// Whether the body can be read more than once (in memory or from a file).
  public var isReplayable: Bool {
    if case .stream = storage { return false }
    return true
  }

  /// The limit of ``collect(upTo:)`` when none is given: 32 MiB, the clients' default body limit.
  public static let defaultLimit = 32 * 1024 * 1024

  /// Reads the whole body into memory.
  ///
  /// ```swift
  /// let (response, body) = try await client.send(request)
  /// let data = try await body.collect()   // at most 32 MiB
  /// ```
  /// - Parameter limit: the largest body accepted, in bytes; ``defaultLimit`` unless given.
  /// - Throws: a ``TransportFailure`` of kind ``TransportFailure/Kind/responseTooLarge`` past
  ///   `limit` (checked against the declared length first, so a body that is too large is not
  ///   read at all), or the error the source throws.
  public func collect(upTo limit: Int = HTTPBody.defaultLimit) async throws -> Data {
    if let length, length > Int64(limit) {
      throw TransportFailure.responseTooLarge(limit: limit, received: length)
    }
    if case .buffer(let data) = storage { return data }
    var result = Data()
    // A declared length is a hint from the other side: reserve for it, but never more than a
    // few megabytes up front, so a false `Content-Length` cannot make one huge allocation.
    if let length { result.reserveCapacity(Int(Swift.min(length, HTTPBody.maximumReservation))) }
    for try await chunk in self {
      if result.count + chunk.count > limit {
        throw TransportFailure.responseTooLarge(
          limit: limit, received: Int64(result.count + chunk.count))
      }
      result.append(chunk)
    }
    return result
  }

  /// The most ``collect(upTo:)`` reserves before any byte arrives.
  static let maximumReservation: Int64 = 8 * 1024 * 1024

  /// Creates an iterator over the chunks.
  public func makeAsyncIterator() -> AsyncIterator {
    switch storage {
    case .buffer(let data):
      return AsyncIterator(next: BufferChunks(data).next)
    case .file(let url):
      return AsyncIterator(next: FileReader(url: url).next)
    case .stream(let source):
      return AsyncIterator(next: source.makeNext())
    }
  }

  /// Iterates over a body's chunks.
  public struct AsyncIterator: AsyncIteratorProtocol {
    private let nextChunk: () async throws -> Data?

    init(next: @escaping () async throws -> Data?) {
      nextChunk = next
    }

    /// The next chunk, or `nil` at the end of the body.
    public mutating func next() async throws -> Data? {
      try await nextChunk()
    }
  }
}

/// Hands out an in-memory body as a single chunk.
private final class BufferChunks {
  private var data: Data?

  init(_ data: Data) {
    self.data = data.isEmpty ? nil : data
  }

  func next() -> Data? {
    defer { data = nil }
    return data
  }
}

/// A single-use source of chunks; a second reader gets ``InvalidRequest`` (`.bodyAlreadyConsumed`).
final class StreamSource: Sendable {
  private let makeIterator: @Sendable () -> (() async throws -> Data?)
  private let consumed = Mutex(false)

  init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks) where Chunks.Element == Data {
    makeIterator = {
      let box = IteratorBox(sequence.makeAsyncIterator())
      return box.next
    }
  }

  func makeNext() -> () async throws -> Data? {
    let first = consumed.withVisibleLock { consumed in
      defer { consumed = true }
      return !consumed
    }
    guard first else { return { throw InvalidRequest.bodyAlreadyConsumed() } }
    return makeIterator()
  }
}

private final class IteratorBox<Base: AsyncIteratorProtocol> where Base.Element == Data {
  private var base: Base

  init(_ base: Base) {
    self.base = base
  }

  func next() async throws -> Data? {
    try await base.next()
  }
}

extension InvalidRequest {
  /// A body that can be read only once was read a second time.
  static func bodyAlreadyConsumed() -> Self {
    Self(
      .bodyAlreadyConsumed, subject: "The body was already read",
      reason: "a streamed body can be read only once; "
        + "use an in-memory or file body where it must be read again")
  }
}
