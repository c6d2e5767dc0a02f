/// One exchange as ``LoggingMiddleware`` reports it: what was asked, what came back, how long it
/// took and how many body bytes the caller read, with secrets already hidden.
///
/// Its ``description`` is the log line:
///
/// ```text
/// GET https://api.example.com/users?token=<redacted> → 200 OK, 1532 bytes in 84 ms
/// ```
public struct HTTPLogEntry: Sendable, Hashable, CustomStringConvertible {
  /// The request method.
  public var method: HTTPMethod
  /// The request URL, with hidden query parameters and password redacted.
  public var url: String
  /// The response status, or `nil` when no response arrived.
  public var status: Int?
  /// From sending the request to the end of the response body (or the failure).
  public var duration: Duration
  /// The response body bytes the caller read.
  public var bytes: Int64
  /// The error's description when the exchange or the reading of the body failed; `nil` when
  /// the body was read to its end or released.
  public var failure: String?
  /// Whether the caller released the response body before reading it to the end (or never read
  /// it). An exchange neither failed nor abandoned read its body to the end.
  public var isAbandoned: Bool
  /// The request's header fields, redacted, when the middleware logs headers.
  public var requestHeaders: HTTPFields?
  /// The response's header fields, redacted, when the middleware logs headers.
  public var responseHeaders: HTTPFields?
  /// A bounded preview of the request body, when the middleware previews bodies.
  public var requestBodyPreview: String?
  /// A bounded preview of the response body, when the middleware previews bodies.
  public var responseBodyPreview: String?

  /// Creates an entry.
  public init(
    method: HTTPMethod,
    url: String,
    status: Int? = nil,
    duration: Duration = .zero,
    bytes: Int64 = 0,
    failure: String? = nil,
    isAbandoned: Bool = false,
    requestHeaders: HTTPFields? = nil,
    responseHeaders: HTTPFields? = nil,
    requestBodyPreview: String? = nil,
    responseBodyPreview: String? = nil
  ) {
    self.method = method
    self.url = url
    self.status = status
    self.duration = duration
    self.bytes = bytes
    self.failure = failure
    self.isAbandoned = isAbandoned
    self.requestHeaders = requestHeaders
    self.responseHeaders = responseHeaders
    self.requestBodyPreview = requestBodyPreview
    self.responseBodyPreview = responseBodyPreview
  }

  /// The summary line: method, URL, status, bytes and duration; then, when present, one line
  /// per header (`>` sent, `<` received) and the body previews.
  public var description: String {
    var lines = ["\(method) \(url) → \(summary)"]
    for field in requestHeaders ?? HTTPFields() { lines.append("  > \(field)") }
    if let requestBodyPreview { lines.append("  > body: \(requestBodyPreview)") }
    for field in responseHeaders ?? HTTPFields() { lines.append("  < \(field)") }
    if let responseBodyPreview { lines.append("  < body: \(responseBodyPreview)") }
    return lines.joined(separator: "\n")
  }

  private var summary: String {
    let time = Self.format(duration)
    guard let status else {
      if let failure { return "failed after \(time): \(failure)" }
      return "no response after \(time)"
    }
    let head = "\(HTTPResponse(status: status)), \(bytes) byte\(bytes == 1 ? "" : "s") in \(time)"
    if let failure { return "\(head), then the body failed: \(failure)" }
    return isAbandoned ? "\(head) (body released before its end)" : head
  }

  /// `12.3 ms` below a second, `1.25 s` above.
  static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    if milliseconds < 1_000 { return "\((milliseconds * 10).rounded() / 10) ms" }
    return "\((milliseconds / 10).rounded() / 100) s"
  }
}

extension HTTPLogEntry: CustomReflectable {
  /// The stored properties with ``Redaction/standard`` applied once more, for `dump(_:)` and LLDB's
  /// `po`: an entry made by hand, or by a ``LoggingMiddleware`` with a looser redaction, shows no
  /// URL credential, no secret field value and no secret in a preview or a failure.
  public var customMirror: Mirror {
    let redaction = Redaction.standard
    return Mirror(
      self,
      children: [
        "method": method,
        "url": redaction.apply(toText: url),
        "status": status as Any,
        "duration": duration,
        "bytes": bytes,
        "failure": failure.map { redaction.apply(toText: $0) } as Any,
        "isAbandoned": isAbandoned,
        "requestHeaders": requestHeaders?.redacted() as Any,
        "responseHeaders": responseHeaders?.redacted() as Any,
        "requestBodyPreview": requestBodyPreview.map { redaction.apply(toText: $0) } as Any,
        "responseBodyPreview": responseBodyPreview.map { redaction.apply(toText: $0) } as Any,
      ],
      displayStyle: .struct)
  }
}
