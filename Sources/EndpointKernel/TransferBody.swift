import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A transfer whose response body is read a chunk at a time: what ``TransferBody`` reads from.
package protocol ChunkedTransfer: AnyObject, Sendable {
  /// The next chunk of the body, waiting for it if needed; `nil` at its end.
  func nextChunk() async throws -> Data?
  /// Stops the transfer with `CancellationError` (the calling task was cancelled, or the body
  /// was dropped); nothing happens once it has ended.
  func cancel()
}

/// The chunks of a streamed response body as they arrive, read once: the body both transports
/// hand to the caller.
///
/// When the body is dropped before its end (the caller stopped reading), the transfer is
/// stopped, so an unread body never keeps a connection busy.
package final class TransferBody<Transfer: ChunkedTransfer>: AsyncSequence, Sendable {
  package typealias Element = Data

  private let transfer: Transfer

  /// The body of `transfer`.
  package init(transfer: Transfer) {
    self.transfer = transfer
  }

  deinit {
    transfer.cancel()
  }

  package func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(body: self)
  }

  /// Reads the transfer's chunks in order.
  package struct AsyncIterator: AsyncIteratorProtocol {
    // Keeps the body, and so the transfer, alive while someone iterates.
    let body: TransferBody

    package mutating func next() async throws -> Data? {
      try await body.transfer.nextChunk()
    }
  }
}
