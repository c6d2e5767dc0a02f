import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A transport whose `send`, `upload` and `download` are one operation,
/// ``perform(_:mode:progress:)``: the public transfer methods are written here once, so each
/// transport writes only its own transfer.
package protocol TransferPerforming: HTTPTransferClient {
  /// Sends `request`, handing the response body back or writing it to a file as `mode` says.
  ///
  /// - Parameters:
  ///   - request: the request.
  ///   - mode: what happens to the response body.
  ///   - progress: who is told of the bytes sent and received.
  /// - Returns: the response head and body (an empty body for a download).
  func perform(
    _ request: HTTPRequest, mode: TransferMode, progress: TransferProgressHandlers
  ) async throws -> (HTTPResponse, HTTPBody)
}

/// Who is told of a transfer's progress: the request body bytes sent, the response body bytes
/// received.
package struct TransferProgressHandlers: Sendable {
  /// Called as request body bytes are sent.
  package var upload: (@Sendable (TransferProgress) -> Void)?
  /// Called as response body bytes arrive.
  package var download: (@Sendable (TransferProgress) -> Void)?

  /// No one is told.
  package static let none = TransferProgressHandlers()

  /// Creates the handlers.
  package init(
    upload: (@Sendable (TransferProgress) -> Void)? = nil,
    download: (@Sendable (TransferProgress) -> Void)? = nil
  ) {
    self.upload = upload
    self.download = download
  }
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
    try await perform(request, mode: .stream, progress: TransferProgressHandlers(upload: progress))
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
      progress: TransferProgressHandlers(download: progress)
    )
    return response
  }
}
