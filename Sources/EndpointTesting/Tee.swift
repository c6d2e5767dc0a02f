import Foundation

/// Copies a body's chunks as its reader takes them, without reading ahead, so a single-use body
/// still reaches its reader whole.
///
/// The copy keeps the original's trailer fields: a response's trailers read by the transport
/// stay readable through the copy, and a request body still sends its trailers.
enum Tee {
  static func body(
    _ body: HTTPBody,
    onChunk: @escaping @Sendable (Data) -> Void,
    onEnd: @escaping @Sendable ((any Error)?) -> Void = { _ in }
  ) -> HTTPBody {
    var copy = HTTPBody(
      TeeSequence(base: body, onChunk: onChunk, onEnd: onEnd), length: body.length)
    copy.trailers = body.trailers
    copy.requestTrailers = body.requestTrailers
    return copy
  }
}

private struct TeeSequence: AsyncSequence, Sendable {
  typealias Element = Data

  let base: HTTPBody
  let onChunk: @Sendable (Data) -> Void
  let onEnd: @Sendable ((any Error)?) -> Void

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), onChunk: onChunk, onEnd: onEnd)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: HTTPBody.AsyncIterator
    let onChunk: @Sendable (Data) -> Void
    let onEnd: @Sendable ((any Error)?) -> Void
    var ended = false

    mutating func next() async throws -> Data? {
      guard !ended else { return nil }
      do {
        if let chunk = try await base.next() {
          onChunk(chunk)
          return chunk
        }
        ended = true
        onEnd(nil)
        return nil
      } catch {
        ended = true
        onEnd(error)
        throw error
      }
    }
  }
}
