#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One HTTP exchange as a span, recorded by ``TraceContextMiddleware`` when the exchange ends:
/// its identifiers, when it ran, how it ended, and the transport's timings when they are
/// forwarded to the middleware.
///
/// Nothing here carries a secret: the URL, and the URLs of ``metrics``, are redacted by the
/// middleware's ``Redaction`` (the SDK's rule unless you pass your own), and a failure is the
/// error's description, redacted by the same rule.
public struct SpanRecord: Sendable {
  /// The span's name: the request's method, as OpenTelemetry's HTTP conventions name client
  /// spans (`GET`).
  public var name: String
  /// The trace's identifier (32 hexadecimal digits).
  public var traceID: String
  /// This exchange's span identifier (16 hexadecimal digits): the parent id the server saw.
  public var spanID: String
  /// The span this one continues, or `nil` for the root of a new trace.
  public var parentSpanID: String?
  /// Whether the trace is sampled.
  public var isSampled: Bool
  /// The `tracestate` sent, if any.
  public var traceState: String?
  /// The request's method.
  public var method: HTTPMethod
  /// The request's URL, credentials redacted.
  public var url: String
  /// The wall-clock time the exchange started, for exporters that want one.
  public var startDate: Date
  /// When the exchange started (the middleware's clock).
  public var start: ContinuousClock.Instant
  /// When the response head reached the middleware; `nil` when none did.
  public var responseStart: ContinuousClock.Instant?
  /// When the exchange ended (the body's end, failure or release).
  public var end: ContinuousClock.Instant
  /// The response status; `nil` when no response arrived.
  public var status: Int?
  /// The error's description when the request or the body failed; `nil` when the body was read
  /// to its end or released.
  public var failure: String?
  /// Whether the caller released the body before its end. An exchange neither failed nor
  /// abandoned read its body to the end.
  public var isAbandoned: Bool
  /// Body bytes the caller read.
  public var bytesRead: Int64
  /// The transport's timings (name lookup, connect, TLS, first byte…), when the client's
  /// metrics observer forwards them to ``TraceContextMiddleware/observe(_:)`` and they arrived
  /// before the exchange ended.
  public var metrics: TransferMetrics?

  /// How long the exchange took.
  public var duration: Duration { end - start }

  /// Whether the exchange failed: an error, or a status of 500 or more (OpenTelemetry's rule for
  /// client spans; a 4xx answer is a completed exchange).
  public var isError: Bool {
    failure != nil || (status ?? 0) >= 500
  }
}
