#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient: HTTPTransferClient {
  /// Sends a request with a body, reporting the body bytes sent as they go; see
  /// ``EndpointCore/HTTPTransferClient/upload(_:progress:)``.
  ///
  /// The body can be in memory, a file (``/EndpointCore/HTTPBody/init(contentsOf:)``, read
  /// from disk as it is sent) or a stream (read as it is sent, see ``send(_:)``). The expected
  /// total is the body's length, `nil` for a stream that declares none.
  ///
  /// `progress` is called on the client's loop thread; keep it short.
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
  /// `progress` is called on the client's loop thread; keep it short.
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
