#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient {
  /// Timings and byte counts of one request, from the SDK's clock and libcurl's own timers.
  ///
  /// CurlHTTPClient/Configuration/metricsObserver receives one value per request when its
  /// transfer ends: after the last body byte arrived, or when it failed or was cancelled.
  ///
  /// The phase timings (`nameLookup` … `firstByte`) are libcurl's for the final request of
  /// the exchange (after redirects), each measured from that request's start; on a reused
  /// connection the name lookup, connect and TLS phases take no time.
  ///
  /// ```swift
  /// var configuration = CurlHTTPClient.Configuration()
  /// configuration.metricsObserver = { metrics in
  ///   print(metrics)  // GET http://… 200 in 1.2 ms (dns 0.0 ms, connect 0.1 ms, first byte 1.1 ms)…
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
    /// When the request started, on the SDK's clock.
    public var start: ContinuousClock.Instant
    /// When the head of the final response arrived.
    public var responseStart: ContinuousClock.Instant?
    /// When the first byte of the final response's body arrived.
    public var firstBodyByte: ContinuousClock.Instant?
    /// When the transfer ended.
    public var end: ContinuousClock.Instant
    /// Time until the host name was resolved (libcurl's `CURLINFO_NAMELOOKUP_TIME_T`).
    public var nameLookup: Duration?
    /// Time until the TCP connection was made (`CURLINFO_CONNECT_TIME_T`).
    public var connect: Duration?
    /// Time until the TLS handshake finished (`CURLINFO_APPCONNECT_TIME_T`); `nil` without TLS.
    public var tlsHandshake: Duration?
    /// Time until the first response byte arrived (`CURLINFO_STARTTRANSFER_TIME_T`).
    public var firstByte: Duration?
    /// libcurl's total time for the final request (`CURLINFO_TOTAL_TIME_T`).
    public var total: Duration?
    /// Whether the final request went over a connection kept alive from an earlier one.
    public var reusedConnection: Bool?
    /// The HTTP version of the final response, such as `"1.1"` or `"2"`.
    public var httpVersion: String?
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

    /// `METHOD URL status in … (dns …, connect …, tls …, first byte …), N B sent, N B received`,
    /// plus the error if any.
    public var description: String {
      var text = "\(method) \(URLRedaction.redacted(url)) "
      text += status.map(String.init) ?? "no response"
      text += " in \(duration.millisecondsDescription)"
      var phases: [String] = []
      if let nameLookup { phases.append("dns \(nameLookup.millisecondsDescription)") }
      if let connect { phases.append("connect \(connect.millisecondsDescription)") }
      if let tlsHandshake { phases.append("tls \(tlsHandshake.millisecondsDescription)") }
      if let firstByte { phases.append("first byte \(firstByte.millisecondsDescription)") }
      if !phases.isEmpty { text += " (\(phases.joined(separator: ", ")))" }
      text += ", \(bytesSent) B sent, \(bytesReceived) B received"
      if redirectCount > 0 { text += ", \(redirectCount) redirects" }
      if let error { text += ", failed: \(error)" }
      return text
    }
  }
}
