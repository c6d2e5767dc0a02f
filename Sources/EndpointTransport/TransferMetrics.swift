#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Timings and byte counts of one request, measured by the SDK from URLSession's delegate
/// callbacks (Foundation's own task metrics are never delivered on Linux).
///
/// ``URLSessionHTTPClient/Configuration/metricsObserver`` receives one value per request when
/// its transfer ends: after the last body byte arrived, or when it failed or was cancelled. For
/// a streamed body that is when the last byte arrived, not when the caller finished reading it.
///
/// ```swift
/// var configuration = URLSessionHTTPClient.Configuration()
/// configuration.metricsObserver = { metrics in
///   log.info("\(metrics)")  // GET http://… 200 in 12.3 ms (head 11.9 ms), 0 B sent, …
/// }
/// ```
public struct TransferMetrics: Sendable, CustomStringConvertible {
  /// The request's method.
  public var method: HTTPMethod
  /// The URL of the original request.
  public var url: URL
  /// The URL that gave the final response, after redirects; `nil` without a response.
  public var finalURL: URL?
  /// The final response's status, or `nil` when no response arrived.
  public var status: Int?
  /// The wall-clock time the request started, for logs.
  public var startDate: Date
  /// When the request started.
  public var start: ContinuousClock.Instant
  /// When the head of the final response arrived.
  public var responseStart: ContinuousClock.Instant?
  /// When the first byte of the final response's body arrived.
  public var firstByte: ContinuousClock.Instant?
  /// When the transfer ended.
  public var end: ContinuousClock.Instant
  /// Request body bytes sent, over every redirect.
  public var bytesSent: Int64
  /// Response body bytes received (after content decoding), over every redirect.
  public var bytesReceived: Int64
  /// How many redirects were followed.
  public var redirectCount: Int
  /// The error the request ended with, or `nil` when it succeeded.
  public var error: (any Error)?

  /// Time from the start to the final response's head.
  public var timeToResponse: Duration? { responseStart.map { $0 - start } }

  /// Time from the start to the end of the transfer.
  public var duration: Duration { end - start }

  /// `METHOD URL status in … (head …), N B sent, N B received`, plus the error if any.
  public var description: String {
    var text = "\(method) \(url.absoluteString) "
    text += status.map(String.init) ?? "no response"
    text += " in \(Self.milliseconds(duration))"
    if let timeToResponse { text += " (head \(Self.milliseconds(timeToResponse)))" }
    text += ", \(bytesSent) B sent, \(bytesReceived) B received"
    if redirectCount > 0 { text += ", \(redirectCount) redirects" }
    if let error { text += ", failed: \(error)" }
    return text
  }

  private static func milliseconds(_ duration: Duration) -> String {
    let tenths = duration.nanoseconds / 100_000
    return "\(tenths / 10).\(tenths % 10) ms"
  }
}
