import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A response body that reports to a ``LoggedBodyTracker`` as the caller reads it.
struct LoggedBody: AsyncSequence, Sendable {
  typealias Element = Data

  let base: HTTPBody
  let tracker: LoggedBodyTracker

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), tracker: tracker)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: HTTPBody.AsyncIterator
    let tracker: LoggedBodyTracker

    mutating func next() async throws -> Data? {
      do {
        guard let chunk = try await base.next() else {
          tracker.finish(.completed)
          return nil
        }
        tracker.received(chunk)
        return chunk
      } catch {
        tracker.finish(.failed("\(error)"))
        throw error
      }
    }
  }
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
  private let sink: @Sendable (HTTPLogEntry) -> Void

  init(
    entry: HTTPLogEntry,
    start: ContinuousClock.Instant,
    previewLimit: Int?,
    sink: @escaping @Sendable (HTTPLogEntry) -> Void
  ) {
    state = Mutex(State(entry: entry))
    self.start = start
    self.previewLimit = previewLimit
    self.sink = sink
  }

  deinit {
    finish(.abandoned)
  }

  func received(_ chunk: Data) {
    state.withLock { state in
      state.entry.bytes += Int64(chunk.count)
      // Three bytes past the limit let the preview end on a whole UTF-8 character.
      if let previewLimit, state.preview.count < previewLimit + 3 {
        state.preview.append(chunk.prefix(previewLimit + 3 - state.preview.count))
      }
    }
  }

  func finish(_ outcome: HTTPLogEntry.Outcome) {
    let entry = state.withLock { state -> HTTPLogEntry? in
      if state.reported { return nil }
      state.reported = true
      state.entry.outcome = outcome
      state.entry.duration = start.duration(to: .now)
      if let previewLimit {
        state.entry.responseBodyPreview = Self.preview(
          state.preview,
          total: state.entry.bytes,
          limit: previewLimit
        )
      }
      return state.entry
    }
    // The sink runs outside the lock: it may be slow or log from another thread.
    if let entry { sink(entry) }
  }

  /// A preview of a body of which only the first bytes were kept.
  static func preview(_ kept: Data, total: Int64, limit: Int) -> String {
    if Int64(kept.count) == total { return BodyPreview.text(of: kept, limit: limit) }
    var end = min(kept.count, limit)
    while end > 0, end < kept.count, kept[kept.startIndex + end] & 0xC0 == 0x80 { end -= 1 }
    let prefix = kept.prefix(end)
    guard let text = String(validating: prefix, as: UTF8.self),
      !text.unicodeScalars.contains(where: {
        $0.value < 0x20 && !"\n\r\t".unicodeScalars.contains($0)
      })
    else { return "<\(total) bytes of binary data>" }
    return "\(text)… (\(total - Int64(end)) more bytes)"
  }
}
