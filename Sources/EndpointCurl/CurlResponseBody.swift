#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The chunks of a streamed response body as they arrive, read once.
///
/// When the body is dropped before its end (the caller stopped reading), the transfer is
/// stopped, so an unread body never keeps a connection busy.
final class CurlResponseBody: AsyncSequence, Sendable {
  typealias Element = Data

  private let transfer: CurlTransfer

  init(transfer: CurlTransfer) {
    self.transfer = transfer
  }

  deinit {
    transfer.cancel()
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(body: self)
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    // Keeps the body, and so the transfer, alive while someone iterates.
    let body: CurlResponseBody

    mutating func next() async throws -> Data? {
      try await body.transfer.nextChunk()
    }
  }
}
