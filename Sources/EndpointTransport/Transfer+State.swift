import EndpointKernel
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension Transfer {
  /// What to do once the lock is released.
  struct Effects {
    var head: (TransferHeadContinuation, Result<(FoundationResponseHead, HTTPBody), any Error>)?
    var waiter: (ChunkContinuation, Result<Data?, any Error>)?
    var cancelTask: URLSessionTask?
    var discardFile: DownloadFile?
    var metrics: State.Snapshot?
    var stopTimer = false
    /// The transfer finished or failed just now (a download's end is handled apart).
    var ended = false
  }

  typealias Outcome = TransferOutcome

  enum Delivery: Equatable {
    case pending
    case inline
    case streaming
    case file(DownloadFile)
    case errorBody

    static func == (lhs: Delivery, rhs: Delivery) -> Bool {
      switch (lhs, rhs) {
      case (.pending, .pending), (.inline, .inline), (.streaming, .streaming),
        (.errorBody, .errorBody):
        true
      case (.file(let left), .file(let right)): left === right
      default: false
      }
    }
  }

  /// Everything that changes during a transfer; only touched under the lock.
  struct State {
    var hop: Hop
    var task: URLSessionTask?
    var head: TransferHeadContinuation?
    var response: FoundationResponseHead?
    var delivery = Delivery.pending
    var inlineData = Data()
    /// A streamed body's chunks that arrived ahead of its reader.
    var unread = BodyChunkQueue()
    var waiter: ChunkContinuation?
    var outcome: Outcome?
    var cancelRequested = false
    var challengeCancelled = false
    /// A cancellation of `task` was sent to the canceller: its redirect is never answered.
    var taskCancelSent = false
    /// `task`'s redirect was answered: it completes by itself and is never cancelled.
    var redirectAnswered = false
    var redirect: Hop?
    var chain: [URL]
    var lastActivity: ContinuousClock.Instant
    var responseStart: ContinuousClock.Instant?
    var firstByte: ContinuousClock.Instant?
    var expectedLength: Int64?
    var bytesSentBefore: Int64 = 0
    var hopBytesSent: Int64 = 0
    var hopBytesReceived: Int64 = 0
    var bytesReceived: Int64 = 0
    /// Whether anyone observes metrics: without an observer no snapshot is taken.
    let collectsMetrics: Bool

    init(hop: Hop, now: ContinuousClock.Instant, collectsMetrics: Bool) {
      self.hop = hop
      chain = [hop.url]
      lastActivity = now
      self.collectsMetrics = collectsMetrics
    }

    typealias Take = BodyChunkQueue.Take

    struct Snapshot {
      var finalURL: URL?
      var status: Int?
      var responseStart: ContinuousClock.Instant?
      var firstByte: ContinuousClock.Instant?
      var bytesSent: Int64
      var bytesReceived: Int64
      var redirectCount: Int
      var error: (any Error)?
    }

    mutating func takeChunk() -> Take {
      unread.take(outcome: outcome)
    }

    /// Hands the head to the caller with a streamed body.
    mutating func startStreaming(body: HTTPBody) -> Effects {
      delivery = .streaming
      var effects = Effects()
      if let head, let response {
        self.head = nil
        effects.head = (head, .success((response, body)))
      }
      return effects
    }

    /// Resets the per-response state for the next request of a redirect chain.
    mutating func beginHop(_ next: Hop) {
      hop = next
      redirect = nil
      task = nil
      taskCancelSent = false
      redirectAnswered = false
      response = nil
      responseStart = nil
      firstByte = nil
      expectedLength = nil
      delivery = .pending
      inlineData = Data()
      bytesSentBefore += hopBytesSent
      hopBytesSent = 0
      hopBytesReceived = 0
      challengeCancelled = false
    }

    /// The body ended normally.
    mutating func finish() -> Effects {
      outcome = .finished
      var effects = Effects(stopTimer: true)
      if let head, let response {
        self.head = nil
        effects.head = (head, .success((response, HTTPBody(inlineData))))
        inlineData = Data()
      }
      if let waiter {
        self.waiter = nil
        effects.waiter = (waiter, .success(nil))
      }
      effects.ended = true
      if collectsMetrics { effects.metrics = snapshot(error: nil) }
      return effects
    }

    /// The transfer failed or was stopped: everyone waiting gets `error`.
    mutating func terminate(with error: any Error) -> Effects {
      outcome = .failed(error)
      var effects = Effects(stopTimer: true)
      if let head {
        self.head = nil
        effects.head = (head, .failure(error))
      }
      if let waiter {
        self.waiter = nil
        effects.waiter = (waiter, .failure(error))
      }
      unread.removeAll()
      inlineData = Data()
      if let task, !redirectAnswered {
        effects.cancelTask = task
        taskCancelSent = true
      }
      if case .file(let file) = delivery { effects.discardFile = file }
      effects.ended = true
      if collectsMetrics { effects.metrics = snapshot(error: error) }
      return effects
    }

    func snapshot(error: (any Error)?) -> Snapshot {
      Snapshot(
        finalURL: response?.url,
        status: response?.status,
        responseStart: responseStart,
        firstByte: firstByte,
        bytesSent: bytesSentBefore + hopBytesSent,
        bytesReceived: bytesReceived,
        redirectCount: chain.count - 1,
        error: error
      )
    }
  }
}
