import Foundation

extension URLSessionHTTPClient: HTTPTransferClient {
  /// Sends a request with a body, reporting the body bytes sent as they go; see
  /// ``EndpointCore/HTTPTransferClient/upload(_:progress:)``.
  ///
  /// The body can be in memory or a file (``/EndpointCore/HTTPBody/init(contentsOf:)``, sent
  /// straight from disk); a streamed body is read first (see ``send(_:)``).
  ///
  /// `progress` is called from the session's delegate queue; keep it short.
  public func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await perform(request, mode: .stream, uploadProgress: progress, downloadProgress: nil)
  }

  /// Downloads a response body straight to a file, reporting the bytes received; see
  /// ``EndpointCore/HTTPTransferClient/download(_:to:accepting:progress:)``.
  ///
  /// ```swift
  /// let response = try await client.download(request, to: file) { progress in
  ///   print(progress.fractionCompleted ?? 0)
  /// }
  /// ```
  ///
  /// `progress` is called from the session's delegate queue; keep it short.
  @discardableResult
  public func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus = .success,
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> HTTPResponse {
    let (response, _) = try await perform(
      request,
      mode: .download(destination: destination, accepted: accepted),
      uploadProgress: nil,
      downloadProgress: progress
    )
    return response
  }
}
