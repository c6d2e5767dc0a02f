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
  public var trailerFields: HTTPFields? { trailers?() }

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

  /// A streamed body that reads its trailer fields from `trailers` (middleware that wrap a body
  /// pass the original's on, so the caller still sees them).
  init<Chunks: AsyncSequence & Sendable>(
    _ sequence: Chunks,
    length: Int64?,
    trailers: (@Sendable () -> HTTPFields?)?
  ) where Chunks.Element == Data {
    self.init(sequence, length: length)
    self.trailers = trailers
  }
}
