#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A client that also uploads with progress and downloads straight to a file: every transport
/// of the package (``EndpointTransport/URLSessionHTTPClient``,
/// ``EndpointCurl/CurlHTTPClient``) adopts it.
///
/// Write code once for any transport, and get the endpoint forms
/// (``upload(_:bodyLimit:progress:)``, and `download(_:to:progress:)` with an ``Endpoint``) for
/// free:
///
/// ```swift
/// func save(
///   _ archive: Endpoint<Void>, to file: URL, with client: some HTTPTransferClient
/// )
///   async throws
/// {
///   try await client.download(archive, to: file) { print($0) }
/// }
/// ```
public protocol HTTPTransferClient: HTTPClient {
  /// Sends a request with a body, reporting the body bytes sent as they go.
  ///
  /// - Parameters:
  ///   - request: the request, with its body (in memory or a file).
  ///   - progress: called as bytes are sent, on a thread of the transport; keep it short.
  /// - Returns: the response head and body, as ``HTTPClient/send(_:)`` does.
  func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody)

  /// Downloads a response body straight to a file, reporting the bytes received.
  ///
  /// The body goes to a hidden partial file beside `destination` and is moved over
  /// `destination` only when it is complete; on any failure or cancellation the partial file is
  /// deleted. The body never sits in memory, whatever its size. The file is not flushed to the
  /// disk (no `fsync`): when the call returns it is complete for every reader of the file
  /// system, and a caller that must survive a power loss syncs it itself.
  ///
  /// - Parameters:
  ///   - request: the request.
  ///   - destination: the file to write; its directory must exist.
  ///   - accepted: the statuses whose body is saved; any other fails with
  ///     ``UnexpectedResponse`` (with the start of the body) and writes nothing.
  ///   - progress: called as bytes arrive, on a thread of the transport; keep it short.
  /// - Returns: the response head.
  /// - Throws: ``UnexpectedResponse``, a ``TransportFailure`` of kind
  ///   ``TransportFailure/Kind/downloadFile`` when the file cannot be written or moved, and the
  ///   errors of ``HTTPClient/send(_:)``.
  func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus,
    progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> HTTPResponse
}
