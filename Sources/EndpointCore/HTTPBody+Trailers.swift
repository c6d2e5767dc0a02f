import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPBody {
  /// The trailer fields that followed a chunked response body, once the body has been read to
  /// its end; `nil` before that, when the response had none, or when the transport does not
  /// read trailers.
  ///
  /// `CurlHTTPClient` reads them (at most 100 fields and 64 KiB). `URLSessionHTTPClient` never
  /// does: URLSession gives no access to them, so there they are always `nil`.
  ///
  /// ```swift
  /// let (_, body) = try await client.send(request)
  /// let data = try await body.collect()
  /// let checksum = body.trailerFields?["X-Checksum"]
  /// ```
  public var trailerFields: HTTPFields? { trailers?.fields }

  /// Creates a request body from chunks of unknown length, sent in chunks and followed by
  /// trailer fields, such as a checksum of what was sent.
  ///
  /// `trailerFields` is called once, after the stream has ended, so it can report on the whole
  /// body. `CurlHTTPClient` sends them (HTTP/1.1 `chunked`); `URLSessionHTTPClient` cannot send
  /// trailers and refuses such a body with ``InvalidRequest`` (`.unsupported`).
  ///
  /// ```swift
  /// let digest = Digest()  // updated by the stream as it gives chunks
  /// let body = HTTPBody(chunks, trailerFields: { ["X-Checksum": digest.hex] })
  /// ```
  ///
  /// - Parameters:
  ///   - sequence: the chunks, in order; read once.
  ///   - trailerFields: the fields to send after the last chunk.
  public init<Chunks: AsyncSequence & Sendable>(
    _ sequence: Chunks,
    trailerFields: @escaping @Sendable () -> HTTPFields
  ) where Chunks.Element == Data {
    self.init(sequence, length: nil)
    requestTrailers = trailerFields
  }

  /// Whether the body sends trailer fields after its last chunk.
  public var sendsTrailerFields: Bool { requestTrailers != nil }

  /// A streamed body whose trailer fields the transport puts in `trailers` (middleware that
  /// wrap a body pass the original's on, so the caller still sees them).
  package init<Chunks: AsyncSequence & Sendable>(
    _ sequence: Chunks,
    length: Int64?,
    trailers: TrailerBox?
  ) where Chunks.Element == Data {
    self.init(sequence, length: length)
    self.trailers = trailers
  }
}

/// The trailer fields of one response, set by the transport as they arrive and read by the
/// caller once the body has ended.
package final class TrailerBox: Sendable {
  private let storage = Mutex<HTTPFields?>(nil)

  package init() {}

  package var fields: HTTPFields? { storage.withVisibleLock { $0 } }

  package func set(_ fields: HTTPFields?) {
    storage.withVisibleLock { $0 = fields }
  }

  /// Adds one trailer line as libcurl hands it over (`Name: value` and its line end); an empty
  /// line or a field HTTPFields refuses is skipped.
  package func add(line: some Collection<UInt8>) {
    let bytes = Array(line)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
    let name = String(decoding: bytes[..<colon], as: UTF8.self)
    // The value without the optional white space and line end around it.
    var value = bytes[(colon + 1)...]
    let edge: Set<UInt8> = [0x20, 0x09, 0x0d, 0x0a]
    while let first = value.first, edge.contains(first) { value.removeFirst() }
    while let last = value.last, edge.contains(last) { value.removeLast() }
    let text = String(decoding: value, as: UTF8.self)
    storage.withVisibleLock { fields in
      var updated = fields ?? HTTPFields()
      if (try? updated.append(text, for: name)) != nil { fields = updated }
    }
  }
}
