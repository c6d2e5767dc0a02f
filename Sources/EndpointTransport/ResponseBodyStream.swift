import Foundation

/// The chunks of a response body as they arrive, read once.
///
/// When the body is dropped before its end (the caller stopped reading), the transfer is
/// stopped, so an unread body never keeps a connection busy.
final class ResponseBodyStream: AsyncSequence, Sendable {
  typealias Element = Data

  private let transfer: Transfer

  init(transfer: Transfer) {
    self.transfer = transfer
  }

  deinit {
    transfer.abandon()
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(stream: self)
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    // Keeps the stream, and so the transfer, alive while someone iterates.
    let stream: ResponseBodyStream

    mutating func next() async throws -> Data? {
      try await stream.transfer.nextChunk()
    }
  }
}
