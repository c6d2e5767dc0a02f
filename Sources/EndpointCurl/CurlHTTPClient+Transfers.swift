#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient: HTTPTransferClient {
  /// Sends a request with a body, reporting the body bytes sent as they go.
  ///
  /// The body can be in memory or a file (``/EndpointCore/HTTPBody/init(contentsOf:)``, read
  /// from disk as it is sent).
  ///
  /// ```swift
  /// let request = HTTPRequest(method: .put, url: url, body: try HTTPBody(contentsOf: file))
  /// let (response, body) = try await client.upload(request) { print($0) }
  /// ```
  /// - Parameters:
  ///   - request: the request, with its body.
  ///   - progress: called on the client's loop thread as bytes are sent; keep it short.
  /// - Returns: the response head and body, as ``send(_:)`` does.
  public func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await perform(request, mode: .stream, uploadProgress: progress, downloadProgress: nil)
  }

  /// Downloads a response body straight to a file, reporting the bytes received.
  ///
  /// The body is written to a hidden partial file beside `destination` and moved over
  /// `destination` (replacing any file there) only when it is complete. On any failure or
  /// cancellation the partial file is deleted: nothing is left behind. The body never sits in
  /// memory, whatever its size.
  ///
  /// ```swift
  /// let response = try await client.download(request, to: file) { progress in
  ///   print(progress.fractionCompleted ?? 0)
  /// }
  /// ```
  /// - Parameters:
  ///   - request: the request.
  ///   - destination: the file to write; its directory must exist.
  ///   - accepted: the statuses whose body is saved; any other fails with
  ///     ``EndpointCore/UnexpectedResponse`` (with the start of the body) and writes nothing.
  ///   - progress: called on the client's loop thread as bytes arrive; keep it short.
  /// - Returns: the response head.
  /// - Throws: ``EndpointCore/UnexpectedResponse``, ``EndpointCore/DownloadFileError`` and the errors of
  ///   ``send(_:)``.
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
