import EndpointPrimitives
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Propagates W3C Trace Context (`traceparent`, `tracestate`) on every request and records one
/// ``SpanRecord`` per exchange, with no tracing library: hand the records to the one your
/// service uses.
///
/// Each request gets a new span in the trace it belongs to: the context `context` returns (the
/// incoming request your server is handling), else a valid `traceparent` already on the
/// request, else a new trace. The request leaves with `traceparent` naming its span (replacing
/// any the request had) and the context's `tracestate`. The record is handed to `record` once,
/// when the exchange ends: the body read to its end, a failure, or the body released unread.
///
/// For the transport's timings (connect, TLS, first byte) in the records, forward the client's
/// metrics to ``observe(_:)``:
///
/// ```swift
/// let tracing = TraceContextMiddleware(
///   context: { RequestContext.current?.trace }
/// ) { span in
///   exporter.export(span)
/// }
/// var configuration = CurlHTTPClient.Configuration()
/// configuration.metricsObserver = { tracing.observe($0) }
/// let client = try CurlHTTPClient(configuration: configuration).with(tracing)
/// ```
///
/// Place it inside ``RetryMiddleware`` (after it in `with(…)`) for one span per attempt, outside
/// for one span per call.
public struct TraceContextMiddleware: Middleware {
  private let context: @Sendable () -> TraceContext?
  private let sampled: Bool
  private let store: SpanStore

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - context: the context to continue, such as the one of the request your server is
  ///     handling; `nil` (the default returns it) to continue a request's own `traceparent` or
  ///     start a new trace.
  ///   - sampled: the sampled flag of traces this middleware starts; a continued trace keeps
  ///     its own.
  ///   - redaction: what a span hides of URLs and error texts; ``Redaction/standard`` by
  ///     default. Pass the rule your logs use, with the names you added to it.
  ///   - record: receives each exchange's span when it ends, on the thread that ended it: keep
  ///     it short.
  public init(
    context: @escaping @Sendable () -> TraceContext? = { nil },
    sampled: Bool = true,
    redaction: Redaction = .standard,
    record: @escaping @Sendable (SpanRecord) -> Void
  ) {
    self.context = context
    self.sampled = sampled
    store = SpanStore(redaction: redaction, sink: record)
  }

  /// Sends the request with its span's `traceparent` and records the span when it ends.
  public func intercept(_ request: HTTPRequest, next: Next) async throws -> (
    HTTPResponse, HTTPBody
  ) {
    var generator = SystemRandomNumberGenerator()
    let parent =
      context()
      ?? request.headerFields["traceparent"].flatMap {
        TraceContext(traceparent: $0, tracestate: request.headerFields["tracestate"])
      }
    let base = parent ?? TraceContext.root(sampled: sampled, using: &generator)
    let span = base.child(spanID: TraceContext.randomHex(bytes: 8, using: &generator))
    var traced = request
    traced.headerFields["traceparent"] = span.traceparent
    traced.headerFields["tracestate"] = span.traceState
    let record = SpanRecord(
      name: request.method.rawValue,
      traceID: span.traceID,
      spanID: span.spanID,
      parentSpanID: parent?.spanID,
      isSampled: span.isSampled,
      traceState: span.traceState,
      method: request.method,
      url: store.redaction.apply(to: request.url),
      startDate: Date(),
      start: .now,
      responseStart: nil,
      end: .now,
      status: nil,
      failure: nil,
      isAbandoned: false,
      bytesRead: 0,
      metrics: nil
    )
    let tracker = SpanTracker(record: record, requestURL: request.url, store: store)
    let response: HTTPResponse
    let body: HTTPBody
    do {
      (response, body) = try await next(traced)
    } catch {
      tracker.finish(failure: store.redaction.apply(toText: "\(error)"))
      throw error
    }
    tracker.received(response)
    let tracedBody = ObservedBody(base: body, observer: tracker)
    return (response, HTTPBody(tracedBody, length: body.length, trailers: body.trailers))
  }

  /// Gives the transport's metrics of an exchange to its span: install as the client's
  /// `metricsObserver` (or call from it).
  ///
  /// Metrics are matched to the oldest exchange in flight with the same method and URL; two
  /// concurrent exchanges of the same request may swap timings.
  ///
  /// - Parameter metrics: what the client reported.
  public func observe(_ metrics: TransferMetrics) {
    store.attach(metrics)
  }
}

/// The spans in flight of one middleware, for matching metrics, and its sink.
final class SpanStore: Sendable {
  /// Held weakly, so that a body released unread still ends its span.
  private struct Entry {
    let id: Int
    let key: String
    weak var tracker: SpanTracker?
  }

  private let inFlight = Mutex<[Entry]>([])
  private let counter = Atomic<Int>(0)
  let sink: @Sendable (SpanRecord) -> Void
  /// What the spans hide of URLs and error texts.
  let redaction: Redaction

  init(redaction: Redaction, sink: @escaping @Sendable (SpanRecord) -> Void) {
    self.redaction = redaction
    self.sink = sink
  }

  static func key(_ method: HTTPMethod, _ url: URL) -> String {
    "\(method.rawValue) \(url.absoluteString)"
  }

  func register(_ tracker: SpanTracker, key: String) -> Int {
    let id = counter.wrappingAdd(1, ordering: .relaxed).newValue
    inFlight.withVisibleLock { $0.append(Entry(id: id, key: key, tracker: tracker)) }
    return id
  }

  func remove(_ id: Int) {
    inFlight.withVisibleLock { $0.removeAll { $0.id == id } }
  }

  func attach(_ metrics: TransferMetrics) {
    let key = Self.key(metrics.method, metrics.url)
    let tracker = inFlight.withVisibleLock { spans -> SpanTracker? in
      for span in spans where span.key == key {
        if let tracker = span.tracker, tracker.acceptsMetrics { return tracker }
      }
      return nil
    }
    tracker?.attach(metrics)
  }
}

/// One exchange's span: finished once, at the end of the body, its failure or its release.
final class SpanTracker: Sendable {
  private struct State {
    var record: SpanRecord
    var reported = false
  }

  private let state: Mutex<State>
  private let store: SpanStore
  private let id = Mutex<Int?>(nil)

  init(record: SpanRecord, requestURL: URL, store: SpanStore) {
    state = Mutex(State(record: record))
    self.store = store
    id.withVisibleLock { $0 = store.register(self, key: SpanStore.key(record.method, requestURL)) }
  }

  deinit {
    finish(isAbandoned: true)
  }

  var acceptsMetrics: Bool {
    state.withVisibleLock { !$0.reported && $0.record.metrics == nil }
  }

  func attach(_ metrics: TransferMetrics) {
    state.withVisibleLock { state in
      guard state.record.metrics == nil else { return }
      // The transport reports the request's own URLs; a span carries them redacted.
      var shown = metrics
      shown.url = store.redaction.redactedURL(metrics.url)
      shown.finalURL = metrics.finalURL.map(store.redaction.redactedURL)
      state.record.metrics = shown
    }
  }

  func received(_ response: HTTPResponse) {
    state.withVisibleLock { state in
      state.record.status = response.status
      state.record.responseStart = .now
    }
  }

  func read(_ count: Int) {
    state.withVisibleLock { $0.record.bytesRead += Int64(count) }
  }

  func finish(failure: String? = nil, isAbandoned: Bool = false) {
    let record = state.withVisibleLock { state -> SpanRecord? in
      if state.reported { return nil }
      state.reported = true
      state.record.failure = failure
      state.record.isAbandoned = isAbandoned
      state.record.end = .now
      return state.record
    }
    guard let record else { return }
    if let id = id.withVisibleLock({ $0 }) { store.remove(id) }
    store.sink(record)
  }
}

extension SpanTracker: BodyReadObserver {
  func chunkRead(_ chunk: Data) { read(chunk.count) }
  func bodyEnded() { finish() }
  func bodyFailed(_ error: any Error) {
    finish(failure: store.redaction.apply(toText: "\(error)"))
  }
}
