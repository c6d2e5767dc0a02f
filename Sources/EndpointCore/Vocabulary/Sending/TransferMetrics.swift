import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Timings and byte counts of one request, measured by the transport that sent it.
///
/// A client's `metricsObserver` receives one value per request when its transfer ends: after
/// the last body byte arrived, or when it failed or was cancelled. For a streamed body that is
/// when the last byte arrived, not when the caller finished reading it.
///
/// The instants (``start`` … ``end``) are the SDK's own clock and exist for every transport.
/// The connection phases (``nameLookup`` … ``total``, ``reusedConnection``, ``httpVersion``)
/// exist only where the transport can measure them, and are `nil` elsewhere:
/// ``EndpointCurl/CurlHTTPClient`` reports libcurl's timers for the final request of the
/// exchange (after redirects), each measured from that request's start; the URLSession client
/// cannot see them on Linux.
///
/// ```swift
/// configuration.metricsObserver = { metrics in
///   print(metrics)
///   // GET http://… 200 in 1.2 ms (head 1.1 ms, dns 0.0 ms, …), 0 B sent, …
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
  /// When the request started, on the SDK's clock.
  public var start: ContinuousClock.Instant
  /// When the head of the final response arrived.
  public var responseStart: ContinuousClock.Instant?
  /// When the first byte of the final response's body arrived.
  public var firstBodyByte: ContinuousClock.Instant?
  /// When the transfer ended.
  public var end: ContinuousClock.Instant
  /// Time until the host name was resolved; `nil` when the transport cannot measure it.
  public var nameLookup: Duration?
  /// Time until the TCP connection was made; `nil` when the transport cannot measure it.
  public var connect: Duration?
  /// Time until the TLS handshake finished; `nil` without TLS or when not measured.
  public var tlsHandshake: Duration?
  /// Time until the first response byte arrived; `nil` when the transport cannot measure it.
  public var firstByte: Duration?
  /// The transport's own total time for the final request; `nil` when not measured.
  public var total: Duration?
  /// Whether the final request went over a connection kept alive from an earlier one; `nil`
  /// when the transport cannot tell.
  public var reusedConnection: Bool?
  /// The HTTP version of the final response, such as `"1.1"` or `"2"`; `nil` when not known.
  public var httpVersion: String?
  /// Request body bytes sent, over every redirect.
  public var bytesSent: Int64
  /// Response body bytes received (after content decoding), over every redirect.
  public var bytesReceived: Int64
  /// How many redirects were followed.
  public var redirectCount: Int
  /// The error the request ended with, or `nil` when it succeeded.
  public var error: (any Error)?

  /// Creates a value; the phases a transport does not measure stay `nil`.
  public init(
    method: HTTPMethod,
    url: URL,
    finalURL: URL? = nil,
    status: Int? = nil,
    startDate: Date,
    start: ContinuousClock.Instant,
    responseStart: ContinuousClock.Instant? = nil,
    firstBodyByte: ContinuousClock.Instant? = nil,
    end: ContinuousClock.Instant,
    nameLookup: Duration? = nil,
    connect: Duration? = nil,
    tlsHandshake: Duration? = nil,
    firstByte: Duration? = nil,
    total: Duration? = nil,
    reusedConnection: Bool? = nil,
    httpVersion: String? = nil,
    bytesSent: Int64 = 0,
    bytesReceived: Int64 = 0,
    redirectCount: Int = 0,
    error: (any Error)? = nil
  ) {
    self.method = method
    self.url = url
    self.finalURL = finalURL
    self.status = status
    self.startDate = startDate
    self.start = start
    self.responseStart = responseStart
    self.firstBodyByte = firstBodyByte
    self.end = end
    self.nameLookup = nameLookup
    self.connect = connect
    self.tlsHandshake = tlsHandshake
    self.firstByte = firstByte
    self.total = total
    self.reusedConnection = reusedConnection
    self.httpVersion = httpVersion
    self.bytesSent = bytesSent
    self.bytesReceived = bytesReceived
    self.redirectCount = redirectCount
    self.error = error
  }

  /// Time from the start to the final response's head.
  public var timeToResponse: Duration? { responseStart.map { $0 - start } }

  /// Time from the start to the end of the transfer.
  public var duration: Duration { end - start }

  /// `METHOD URL status in … (head …, dns …, connect …, tls …, first byte …), N B sent,
  /// N B received`, with only the timings that were measured, plus the error if any. The URL's
  /// credentials are redacted.
  public var description: String {
    var text = "\(method) \(URLRedaction.redacted(url)) "
    text += status.map(String.init) ?? "no response"
    text += " in \(duration.millisecondsDescription)"
    var phases: [String] = []
    if let timeToResponse { phases.append("head \(timeToResponse.millisecondsDescription)") }
    if let nameLookup { phases.append("dns \(nameLookup.millisecondsDescription)") }
    if let connect { phases.append("connect \(connect.millisecondsDescription)") }
    if let tlsHandshake { phases.append("tls \(tlsHandshake.millisecondsDescription)") }
    if let firstByte { phases.append("first byte \(firstByte.millisecondsDescription)") }
    if !phases.isEmpty { text += " (\(phases.joined(separator: ", ")))" }
    text += ", \(bytesSent) B sent, \(bytesReceived) B received"
    if redirectCount > 0 { text += ", \(redirectCount) redirects" }
    if let error { text += ", failed: " + Redaction.standard.apply(toText: "\(error)") }
    return text
  }
}

extension TransferMetrics: CustomReflectable {
  /// The stored properties with the URLs and the error shown as ``description`` shows them, for
  /// `dump(_:)`, LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "finalURL": finalURL.map { URLRedaction.redacted($0) } as Any,
        "status": status as Any,
        "startDate": startDate,
        "start": start,
        "responseStart": responseStart as Any,
        "firstBodyByte": firstBodyByte as Any,
        "end": end,
        "nameLookup": nameLookup as Any,
        "connect": connect as Any,
        "tlsHandshake": tlsHandshake as Any,
        "firstByte": firstByte as Any,
        "total": total as Any,
        "reusedConnection": reusedConnection as Any,
        "httpVersion": httpVersion as Any,
        "bytesSent": bytesSent,
        "bytesReceived": bytesReceived,
        "redirectCount": redirectCount,
        "error": error.map { Redaction.standard.apply(toText: String(describing: $0)) } as Any,
      ])
  }
}
