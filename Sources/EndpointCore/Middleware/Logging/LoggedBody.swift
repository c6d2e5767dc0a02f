import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Hears about a response body as the caller reads it: each chunk, then its end or failure.
protocol BodyReadObserver: Sendable {
  func chunkRead(_ chunk: Data)
  func bodyEnded()
  func bodyFailed(_ error: any Error)
}

/// A response body that tells an observer what the caller reads (logging, tracing).
struct ObservedBody<Observer: BodyReadObserver>: AsyncSequence, Sendable {
  typealias Element = Data

  let base: HTTPBody
  let observer: Observer

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), observer: observer)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: HTTPBody.AsyncIterator
    let observer: Observer

    mutating func next() async throws -> Data? {
      do {
        guard let chunk = try await base.next() else {
          observer.bodyEnded()
          return nil
        }
        observer.chunkRead(chunk)
        return chunk
      } catch {
        observer.bodyFailed(error)
        throw error
      }
    }
  }
}

extension LoggedBodyTracker: BodyReadObserver {
  func chunkRead(_ chunk: Data) { received(chunk) }
  func bodyEnded() { finish() }
  func bodyFailed(_ error: any Error) { finish(failure: "\(error)") }
}

/// Counts a streamed body's bytes and reports the entry once: at the end of the body, on its
/// failure, or when the body is released unfinished.
final class LoggedBodyTracker: Sendable {
  private struct State {
    var entry: HTTPLogEntry
    var preview = Data()
    var reported = false
  }

  private let state: Mutex<State>
  private let start: ContinuousClock.Instant
  private let previewLimit: Int?
  private let redaction: Redaction
  private let contentType: String?
  private let sink: @Sendable (HTTPLogEntry) -> Void

  init(
    entry: HTTPLogEntry,
    start: ContinuousClock.Instant,
    previewLimit: Int?,
    redaction: Redaction,
    contentType: String?,
    sink: @escaping @Sendable (HTTPLogEntry) -> Void
  ) {
    state = Mutex(State(entry: entry))
    self.start = start
    self.previewLimit = previewLimit
    self.redaction = redaction
    self.contentType = contentType
    self.sink = sink
  }

  deinit {
    finish(isAbandoned: true)
  }

  func received(_ chunk: Data) {
    state.withVisibleLock { state in
      state.entry.bytes += Int64(chunk.count)
      // Three bytes past the limit let the preview end on a whole UTF-8 character.
      if let previewLimit, state.preview.count < previewLimit + 3 {
        state.preview.append(chunk.prefix(previewLimit + 3 - state.preview.count))
      }
    }
  }

  func finish(failure: String? = nil, isAbandoned: Bool = false) {
    let entry = state.withVisibleLock { state -> HTTPLogEntry? in
      if state.reported { return nil }
      state.reported = true
      state.entry.failure = failure.map { redaction.apply(toText: $0) }
      state.entry.isAbandoned = isAbandoned
      state.entry.duration = start.duration(to: .now)
      if let previewLimit {
        state.entry.responseBodyPreview = redaction.preview(
          of: state.preview,
          contentType: contentType,
          totalLength: state.entry.bytes,
          limit: previewLimit
        )
      }
      return state.entry
    }
    // The sink runs outside the lock: it may be slow or log from another thread.
    if let entry { sink(entry) }
  }
}
