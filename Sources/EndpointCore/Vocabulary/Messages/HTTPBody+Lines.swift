#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPBody {
  /// The body as lines of UTF-8 text, read as the chunks arrive.
  ///
  /// Lines end with LF, CRLF or CR (not included); text after the last line ending is the last
  /// line. Invalid UTF-8 is replaced with U+FFFD. A line is held in memory until it ends; one
  /// longer than ``defaultMaximumLineLength`` (1 MiB) throws a ``TransportFailure`` of kind
  /// ``TransportFailure/Kind/lineTooLong``. Use ``lines(maximumLength:)`` for another limit.
  ///
  /// ```swift
  /// let (_, body) = try await client.send(request)
  /// for try await line in body.lines { print(line) }
  /// ```
  public var lines: some AsyncSequence<String, any Error> & Sendable {
    Lines(body: self, maximumLength: Self.defaultMaximumLineLength)
  }

  /// The longest line ``lines`` and ``serverSentEvents`` read before they throw a
  /// ``TransportFailure`` of kind ``TransportFailure/Kind/lineTooLong``: 1 MiB.
  public static let defaultMaximumLineLength = 1 << 20

  /// The body as lines of UTF-8 text, as ``lines`` reads them, with a line at most
  /// `maximumLength` bytes long.
  ///
  /// - Parameter maximumLength: the longest line in bytes (its ending not counted); a longer
  ///   one throws a ``TransportFailure`` of kind ``TransportFailure/Kind/lineTooLong`` as soon as
  ///   the limit is passed, without reading further.
  public func lines(maximumLength: Int) -> some AsyncSequence<String, any Error> & Sendable {
    Lines(body: self, maximumLength: maximumLength)
  }

  /// The lines of a body; see ``EndpointCore/HTTPBody/lines``.
  struct Lines: AsyncSequence, Sendable {
    typealias Element = String

    let body: HTTPBody
    let maximumLength: Int

    func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(reader: LineReader(body, maximumLength: maximumLength, kind: .line))
    }

    struct AsyncIterator: AsyncIteratorProtocol {
      var reader: LineReader

      mutating func next() async throws -> String? {
        guard let bytes = try await reader.next(includeUnterminated: true) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
      }
    }
  }
}
