#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPTransferClient {
  /// Sends the endpoint's request and parses the response like
  /// ``HTTPClient/call(_:bodyLimit:)``, reporting the request body bytes sent as they go.
  ///
  /// ```swift
  /// let file = try RequestPayload.file(video)
  /// let endpoint = Endpoint(.post, url: url, payload: file, parser: .void())
  /// try await client.upload(endpoint) { progress in
  ///   print(progress.fractionCompleted ?? 0)
  /// }
  /// ```
  /// - Parameters:
  ///   - endpoint: what to send.
  ///   - bodyLimit: the largest response body read, as in ``HTTPClient/call(_:bodyLimit:)``.
  ///   - progress: called as bytes are sent, on a thread of the transport; keep it short.
  /// - Returns: the parsed resource.
  public func upload<Resource>(
    _ endpoint: Endpoint<Resource>,
    bodyLimit: Int = defaultBodyLimit,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> Resource {
    let request = try endpoint.request()
    let (response, body) = try await upload(request, progress: progress)
    let data = try await body.collect(upTo: bodyLimit)
    return try endpoint.parse(response, data)
  }

  /// Downloads the endpoint's response body to a file; the statuses its parser accepts are
  /// saved, any other fails with ``UnexpectedResponse`` and writes nothing.
  ///
  /// The endpoint's parser is not run; its accepted statuses decide. See
  /// ``download(_:to:accepting:progress:)``.
  ///
  /// ```swift
  /// let latest = Endpoint(.get, path: "archive.zip", relativeTo: api, parser: .data)
  /// let response = try await client.download(latest, to: file) { progress in
  ///   print(progress.completed, progress.expected ?? -1)
  /// }
  /// ```
  /// - Parameters:
  ///   - endpoint: what to download.
  ///   - destination: the file to write; its directory must exist.
  ///   - progress: called as bytes arrive, on a thread of the transport; keep it short.
  /// - Returns: the response head.
  @discardableResult
  public func download<Resource>(
    _ endpoint: Endpoint<Resource>,
    to destination: URL,
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> HTTPResponse {
    try await download(
      try endpoint.request(),
      to: destination,
      accepting: endpoint.parser.acceptedStatus,
      progress: progress
    )
  }
}

extension HTTPTransferClient {
  /// Downloads a response body with a successful status (2xx) to a file; see
  /// ``download(_:to:accepting:progress:)``.
  ///
  /// ```swift
  /// try await client.download(request, to: file) { print($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - request: the request.
  ///   - destination: the file to write; its directory must exist.
  ///   - progress: called as bytes arrive, on a thread of the transport; keep it short.
  /// - Returns: the response head.
  @discardableResult
  public func download(
    _ request: HTTPRequest,
    to destination: URL,
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> HTTPResponse {
    try await download(request, to: destination, accepting: .success, progress: progress)
  }

  /// Downloads a response body with an accepted status to a file, without progress; see
  /// ``download(_:to:accepting:progress:)``.
  ///
  /// - Parameters:
  ///   - request: the request.
  ///   - destination: the file to write; its directory must exist.
  ///   - accepted: the statuses whose body is saved.
  /// - Returns: the response head.
  @discardableResult
  public func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus
  ) async throws -> HTTPResponse {
    try await download(request, to: destination, accepting: accepted, progress: nil)
  }
}
