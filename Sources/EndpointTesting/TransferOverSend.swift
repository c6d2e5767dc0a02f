import EndpointKernel
import Foundation

/// Uploads and downloads answered through a test double's `send(_:)`: the request goes through
/// the double's own matching, recording or replay, and a download's accepted body is written to
/// the file whole or not at all. Shared by ``StubClient``, ``RecordingClient`` and
/// ``ReplayClient``.
enum TransferOverSend {
  /// Answers `request` through `send`: a stream hands the answer back, reporting the request
  /// body as sent once `send` has read it; a download writes an accepted body to its file.
  static func perform(
    _ request: HTTPRequest,
    mode: TransferMode,
    progress: TransferProgressHandlers,
    send: (HTTPRequest) async throws -> (HTTPResponse, HTTPBody)
  ) async throws -> (HTTPResponse, HTTPBody) {
    switch mode {
    case .stream:
      let length = request.body?.length ?? 0
      let answer = try await send(request)
      progress.upload?(TransferProgress(completed: length, expected: length))
      return answer
    case .download(let destination, let accepted):
      let response = try await download(
        request, to: destination, accepting: accepted, progress: progress.download, send: send)
      return (response, .empty)
    }
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
      throw UnexpectedResponse(
        method: request.method, url: response.url ?? request.url, response: response,
        body: data, accepted: accepted)
    }
    do {
      try data.write(to: destination, options: .atomic)
    } catch {
      throw TransportFailure.downloadFile(destination: destination, reason: "\(error)")
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
extension StubClient: TransferPerforming {
  package func perform(
    _ request: HTTPRequest, mode: TransferMode, progress: TransferProgressHandlers
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await TransferOverSend.perform(request, mode: mode, progress: progress, send: send)
  }
}

/// Uploads and downloads through a recording client are recorded like any other exchange.
extension RecordingClient: TransferPerforming {
  package func perform(
    _ request: HTTPRequest, mode: TransferMode, progress: TransferProgressHandlers
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await TransferOverSend.perform(request, mode: mode, progress: progress, send: send)
  }
}

/// Uploads and downloads through a replaying client are answered from (or recorded to) its
/// fixture like any other exchange.
extension ReplayClient: TransferPerforming {
  package func perform(
    _ request: HTTPRequest, mode: TransferMode, progress: TransferProgressHandlers
  ) async throws -> (HTTPResponse, HTTPBody) {
    try await TransferOverSend.perform(request, mode: mode, progress: progress, send: send)
  }
}
