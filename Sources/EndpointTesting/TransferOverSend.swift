import Foundation

/// Uploads and downloads answered through a test double's `send(_:)`: the request goes through
/// the double's own matching, recording or replay, and a download's accepted body is written to
/// the file whole or not at all. Shared by ``StubClient``, ``RecordingClient`` and
/// ``ReplayClient``.
enum TransferOverSend {
  static func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void,
    send: (HTTPRequest) async throws -> (HTTPResponse, HTTPBody)
  ) async throws -> (HTTPResponse, HTTPBody) {
    let length = request.body?.length ?? 0
    let answer = try await send(request)
    progress(TransferProgress(completed: length, expected: length))
    return answer
  }

  static func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus,
    progress: (@Sendable (TransferProgress) -> Void)?,
    send: (HTTPRequest) async throws -> (HTTPResponse, HTTPBody)
  ) async throws -> HTTPResponse {
    let (response, body) = try await send(request)
    let data = try await body.collect(upTo: Int.max)
    guard accepted.contains(response.status) else {
      throw UnexpectedResponse(response, to: request, body: data, accepted: accepted)
    }
    do {
      try data.write(to: destination, options: .atomic)
    } catch {
      throw DownloadFileError(destination: destination, reason: "\(error)")
    }
    progress?(TransferProgress(completed: Int64(data.count), expected: Int64(data.count)))
    return response
  }
}

/// Uploads and downloads through a stub: code written against ``EndpointCore/HTTPTransferClient``
/// is unit-tested like any other call, with the same rules.
///
/// ```swift
/// let stub = StubClient(baseURL: api)
/// stub.on(.get, "/reports/latest").reply(text: "a,b\n1,2\n")
/// try await stub.download(Report.latest, to: file)   // file holds "a,b\n1,2\n"
/// ```
extension StubClient: HTTPTransferClient {
  /// Answers `request` as ``send(_:)`` does, reporting the request body as sent once it was
  /// read for matching.
  ///
  /// - Throws: what ``send(_:)`` throws.
  public func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await TransferOverSend.upload(request, progress: progress, send: send)
  }

  /// Answers `request` as ``send(_:)`` does and writes an accepted body to `destination`, whole
  /// or not at all.
  ///
  /// - Throws: ``EndpointCore/UnexpectedResponse`` for a status outside `accepted` (the
  ///   destination is left as it was), ``EndpointCore/DownloadFileError`` when the file cannot
  ///   be written, or what ``send(_:)`` throws.
  public func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus,
    progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> HTTPResponse {
    try await TransferOverSend.download(
      request, to: destination, accepting: accepted, progress: progress, send: send)
  }
}

/// Uploads and downloads through a recording client are recorded like any other exchange.
extension RecordingClient: HTTPTransferClient {
  /// Sends `request` through ``send(_:)`` (recorded), reporting the body as sent.
  ///
  /// - Throws: what ``send(_:)`` throws.
  public func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await TransferOverSend.upload(request, progress: progress, send: send)
  }

  /// Sends `request` through ``send(_:)`` (recorded) and writes an accepted body to
  /// `destination`, whole or not at all.
  ///
  /// - Throws: ``EndpointCore/UnexpectedResponse`` for a status outside `accepted`,
  ///   ``EndpointCore/DownloadFileError``, or what ``send(_:)`` throws.
  public func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus,
    progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> HTTPResponse {
    try await TransferOverSend.download(
      request, to: destination, accepting: accepted, progress: progress, send: send)
  }
}

/// Uploads and downloads through a replaying client are answered from (or recorded to) its
/// fixture like any other exchange.
extension ReplayClient: HTTPTransferClient {
  /// Answers `request` through ``send(_:)``, reporting the body as sent.
  ///
  /// - Throws: what ``send(_:)`` throws.
  public func upload(
    _ request: HTTPRequest,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await TransferOverSend.upload(request, progress: progress, send: send)
  }

  /// Answers `request` through ``send(_:)`` and writes an accepted body to `destination`, whole
  /// or not at all.
  ///
  /// - Throws: ``EndpointCore/UnexpectedResponse`` for a status outside `accepted`,
  ///   ``EndpointCore/DownloadFileError``, or what ``send(_:)`` throws.
  public func download(
    _ request: HTTPRequest,
    to destination: URL,
    accepting accepted: AcceptedStatus,
    progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> HTTPResponse {
    try await TransferOverSend.download(
      request, to: destination, accepting: accepted, progress: progress, send: send)
  }
}
