#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPBody {
  /// The body as lines of UTF-8 text, read as the chunks arrive.
  ///
  /// Lines end with LF, CRLF or CR (not included); text after the last line ending is the last
  /// line. Invalid UTF-8 is replaced with U+FFFD. A line is held in memory until it ends.
  ///
  /// ```swift
  /// let (_, body) = try await client.send(request)
  /// for try await line in body.lines { print(line) }
  /// ```
  public var lines: Lines { Lines(body: self) }

  /// The lines of a body; see ``EndpointCore/HTTPBody/lines``.
  public struct Lines: AsyncSequence, Sendable {
    /// One line, without its ending.
    public typealias Element = String

    let body: HTTPBody

    /// Creates an iterator over the lines.
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(reader: LineReader(body))
    }

    /// Iterates over the lines of a body.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var reader: LineReader

      /// The next line, or `nil` at the end of the body.
      public mutating func next() async throws -> String? {
        guard let bytes = try await reader.next(includeUnterminated: true) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
      }
    }
  }
}
