#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Uploads and downloads pass the same middleware as every other call: authorization, retries,
/// default headers and logging apply to them too.
///
/// ```swift
/// let client = transport.with(headers, RetryMiddleware(), auth, logging)
/// try await client.download(Report.latest, to: file)
/// ```
extension MiddlewareClient: HTTPTransferClient where Base: HTTPTransferClient {
  /// Runs the request through every middleware, then the base client's upload.
  ///
  /// - Throws: what a middleware or the base client throws.
  public func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody) {
    let base = self.base
    return try await send(request, from: middleware[...]) { request in
      try await base.upload(request, progress: progress)
    }
  }

  /// Runs the request through every middleware, then the base client's download.
  ///
  /// The middleware see the response head with the written file as its body, and
  /// the status with its body when the status was not accepted (so a retry can send the request
  /// again); a status still not accepted at the end throws ``UnexpectedResponse``.
  ///
  /// - Throws: ``UnexpectedResponse`` for a status outside `accepted`, or what a middleware or
  ///   the base client throws.
  public func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus,
    progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> HTTPResponse {
    let base = self.base
    // Marked so that a cache neither answers a download (no file would be written) nor
    // stores its empty body.
    let (response, body) = try await TransferContext.$isDownload.withValue(true) {
      try await send(request, from: middleware[...]) { request in
        do {
          let response = try await base.download(
            request, to: destination, accepting: accepted, progress: progress)
          // The file as the body, so a middleware that counts bytes (logging) counts them all.
          return (response, (try? HTTPBody(contentsOf: destination)) ?? .empty)
        } catch let error as UnexpectedResponse {
          return (error.response, HTTPBody(error.body))
        }
      }
    }
    guard accepted.contains(response.status) else {
      let body = try await body.collect(upTo: 64 << 10)
      throw UnexpectedResponse(response, to: request, body: body, accepted: accepted)
    }
    return response
  }
}
