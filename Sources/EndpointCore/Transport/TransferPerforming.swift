#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A transport whose `send`, `upload` and `download` are one operation, ``perform(_:mode:uploadProgress:downloadProgress:)``:
/// the public transfer methods are written here once, so each transport writes only its own
/// transfer.
package protocol TransferPerforming: HTTPTransferClient {
  /// Sends `request`, handing the response body back or writing it to a file as `mode` says.
  ///
  /// - Parameters:
  ///   - request: the request.
  ///   - mode: what happens to the response body.
  ///   - uploadProgress: called as request body bytes are sent.
  ///   - downloadProgress: called as response body bytes arrive.
  /// - Returns: the response head and body (an empty body for a download).
  func perform(
    _ request: HTTPRequest,
    mode: TransferMode,
    uploadProgress: (@Sendable (TransferProgress) -> Void)?,
    downloadProgress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> (HTTPResponse, HTTPBody)
}

extension TransferPerforming {
  /// Sends a request with a body, reporting the body bytes sent as they go; see
  /// ``HTTPTransferClient/upload(_:progress:)``.
  ///
  /// The expected total is the body's length, `nil` for a stream that declares none.
  /// `progress` is called on a thread of the transport; keep it short.
  ///
  /// - Parameters:
  ///   - request: the request, with its body.
  ///   - progress: called as bytes are sent.
  /// - Returns: the response head and body.
  public func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await perform(request, mode: .stream, uploadProgress: progress, downloadProgress: nil)
  }

  /// Downloads a response body straight to a file, reporting the bytes received; see
  /// ``HTTPTransferClient/download(_:to:accepting:progress:)``.
  ///
  /// ```swift
  /// let response = try await client.download(request, to: file) { progress in
  ///   print(progress.fractionCompleted ?? 0)
  /// }
  /// ```
  ///
  /// `progress` is called on a thread of the transport; keep it short.
  ///
  /// - Parameters:
  ///   - request: the request.
  ///   - destination: the file to write; its directory must exist.
  ///   - accepted: the statuses whose body is saved.
  ///   - progress: called as bytes arrive.
  /// - Returns: the response head.
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
