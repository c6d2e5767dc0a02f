#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reports one ``HTTPLogEntry`` per exchange (method, URL, status, duration, body bytes) to a
/// sink, with credentials and other secrets hidden.
///
/// ```swift
/// let client = transport.with(
///   LoggingMiddleware(
///     redaction: .standard.adding(
///       headerNames: ["X-Shop-Key"], queryParameterNames: ["sig"]
///     ),
///     bodyPreviewLimit: 256,
///     sink: { entry in logger.info("\(entry)") }
///   )
/// )
/// // GET https://api.example.com/orders?sig=<redacted>
/// //   → 200 OK, 1532 bytes in 84.2 ms
/// ```
///
/// The entry is reported when the exchange is over, so its duration (measured on
/// `ContinuousClock`) and byte count cover the whole body:
/// - a body held in memory is complete when the response arrives: reported at once;
/// - a streamed body is counted as the caller reads it and reported when it ends or fails;
/// - a streamed body the caller releases without reading it to the end is reported when it is
///   released, with ``HTTPLogEntry/isAbandoned`` and the bytes read so far;
/// - an error from the rest of the chain is reported with its description in
///   ``HTTPLogEntry/failure`` and thrown on.
///
/// Placed innermost (last in `client.with(...)`), it reports every
/// attempt that goes to the transport; placed outermost, one entry per call.
public struct LoggingMiddleware: Middleware {
  /// What is hidden in URLs, headers, body previews (JSON, form and multipart fields) and
  /// error texts.
  public let redaction: Redaction
  /// Whether entries carry the request and response header fields (redacted).
  public let includesHeaders: Bool
  /// The most body bytes previewed, or `nil` for no previews.
  public let bodyPreviewLimit: Int?
  private let sink: @Sendable (HTTPLogEntry) -> Void

  /// Creates the middleware.
  ///
  /// - Parameters:
  ///   - redaction: what to hide; ``Redaction/standard`` hides credentials and common secrets.
  ///   - includesHeaders: whether to report the header fields.
  ///   - bodyPreviewLimit: the most bytes of each body to preview (``Redaction/preview(of:contentType:totalLength:limit:)``); `nil`, the
  ///     default, shows no bodies.
  ///   - sink: receives each entry; by default prints it.
  public init(
    redaction: Redaction = .standard,
    includesHeaders: Bool = false,
    bodyPreviewLimit: Int? = nil,
    sink: @escaping @Sendable (HTTPLogEntry) -> Void = { print($0) }
  ) {
    self.redaction = redaction
    self.includesHeaders = includesHeaders
    self.bodyPreviewLimit = bodyPreviewLimit.map { max($0, 0) }
    self.sink = sink
  }

  /// Sends the request and reports the exchange when its body ends.
  ///
  /// - Throws: the error of `next`, unchanged, after reporting it.
  public func intercept(
    _ request: HTTPRequest,
    next: Next
  ) async throws -> (HTTPResponse, HTTPBody) {
    var entry = HTTPLogEntry(
      method: request.method,
      url: redaction.apply(to: request.url),
      requestHeaders: includesHeaders ? redaction.apply(to: request.headerFields) : nil,
      requestBodyPreview: requestPreview(request)
    )
    let start = ContinuousClock.now
    let response: HTTPResponse
    let body: HTTPBody
    do {
      (response, body) = try await next(request)
    } catch {
      entry.duration = start.duration(to: .now)
      entry.failure = redaction.apply(toText: "\(error)")
      sink(entry)
      throw error
    }
    entry.status = response.status
    entry.responseHeaders = includesHeaders ? redaction.apply(to: response.headerFields) : nil
    if let data = body.data {
      entry.duration = start.duration(to: .now)
      entry.bytes = Int64(data.count)
      entry.responseBodyPreview = bodyPreviewLimit.map {
        redaction.preview(of: data, contentType: response.headerFields["Content-Type"], limit: $0)
      }
      sink(entry)
      return (response, body)
    }
    if body.fileURL != nil {
      entry.duration = start.duration(to: .now)
      entry.bytes = body.length ?? 0
      entry.responseBodyPreview = bodyPreviewLimit.map { _ in "<\(entry.bytes) bytes in a file>" }
      sink(entry)
      return (response, body)
    }
    let tracker = LoggedBodyTracker(
      entry: entry,
      start: start,
      previewLimit: bodyPreviewLimit,
      redaction: redaction,
      contentType: response.headerFields["Content-Type"],
      sink: sink
    )
    let logged = ObservedBody(base: body, observer: tracker)
    return (response, HTTPBody(logged, length: body.length, trailers: body.trailers))
  }

  private func requestPreview(_ request: HTTPRequest) -> String? {
    guard let limit = bodyPreviewLimit, let body = request.body else { return nil }
    if let data = body.data {
      return redaction.preview(
        of: data, contentType: request.headerFields["Content-Type"], limit: limit)
    }
    if body.fileURL != nil { return "<\(body.length ?? 0) bytes from a file>" }
    return body.length.map { "<streamed body of \($0) bytes>" } ?? "<streamed body>"
  }
}
