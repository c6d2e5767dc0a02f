import EndpointKernel
import Foundation

/// A request body in the form URLSession can send.
///
/// In-memory bodies pass through untouched, and so do file bodies on Apple platforms. A streamed
/// body is read first: URLSession on Linux cannot pull from an asynchronous source with
/// backpressure, so the stream is collected in memory up to ``memoryLimit`` bytes and spooled to
/// a temporary file beyond that (deleted when the transfer ends). On Linux a file body is read
/// the same way (``snapshotsFiles``), so that the bytes sent cannot change under Foundation.
struct PreparedBody: Sendable {
  static let memoryLimit = 4 * 1024 * 1024

  var outgoing: OutgoingBody
  var isReplayable: Bool
  var temporaryFile: URL?

  /// Prepares `request`'s body.
  ///
  /// - Throws: ``EndpointCore/TransportFailure`` when a stream gives another number of bytes
  ///   than the length it declared; the stream's own error when it fails.
  init(_ request: HTTPRequest) async throws {
    temporaryFile = nil
    guard let body = request.body else {
      outgoing = .none
      isReplayable = true
      return
    }
    isReplayable = body.isReplayable
    if let data = body.data {
      outgoing = data.isEmpty ? .none : .data(data)
    } else if let fileURL = body.fileURL, !Self.snapshotsFiles {
      // URLSession sends the file as it is when the task starts, with that length; a file that
      // grew or shrank since the body was made fails here instead of sending other bytes than
      // the body declared.
      let declared = body.length ?? 0
      let size = Self.fileSize(fileURL)
      guard size == declared else {
        throw TransportFailure.bodyLengthMismatch(
          method: request.method, url: request.url, declared: declared, produced: size ?? 0,
          fileURL: fileURL)
      }
      // An empty file is no body, as empty data is: a `GET` with one is sent, as the curl
      // client sends it, not refused as a `GET` with a body.
      outgoing = declared == 0 ? .none : .file(fileURL)
    } else {
      let (outgoing, file) = try await Self.spool(body) { produced in
        TransportFailure.bodyLengthMismatch(
          method: request.method,
          url: request.url,
          declared: body.length ?? 0,
          produced: produced,
          fileURL: body.fileURL
        )
      }
      self.outgoing = outgoing
      temporaryFile = file
    }
  }

  /// Whether a file body is read before the task starts, as a stream is, instead of being
  /// handed to URLSession: on Linux, Foundation sends a file to its end whatever the length it
  /// declared, so bytes added while it was being sent reached the connection after the body, as
  /// the start of another request. Read first, a file that changed fails with
  /// ``EndpointCore/TransportFailure`` and the bytes sent are exactly the declared ones.
  #if canImport(FoundationNetworking)
    static let snapshotsFiles = true
  #else
    static let snapshotsFiles = false
  #endif

  /// The size of the file at `url` now, or `nil` when it cannot be read.
  static func fileSize(_ url: URL) -> Int64? {
    (try? HTTPBody(contentsOf: url))?.length
  }

  private static func spool(
    _ body: HTTPBody,
    mismatch: (Int64) -> TransportFailure
  ) async throws -> (OutgoingBody, URL?) {
    var buffer = Data()
    var file: FileHandle?
    var fileURL: URL?
    var produced: Int64 = 0
    do {
      for try await chunk in body {
        produced += Int64(chunk.count)
        // A stream that runs past its declared length is stopped at once.
        if let declared = body.length, produced > declared { throw mismatch(produced) }
        if let file {
          try file.write(contentsOf: chunk)
          continue
        }
        buffer.append(chunk)
        if buffer.count > memoryLimit {
          let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("endpoint-upload-\(UUID().uuidString)")
          // Readable by the owner only: the body may hold what the caller would not share.
          guard
            FileManager.default.createFile(
              atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
          else {
            throw InvalidRequest(.body, reason: "cannot create a temporary file", fileURL: url)
          }
          fileURL = url
          let handle = try FileHandle(forWritingTo: url)
          file = handle
          try handle.write(contentsOf: buffer)
          buffer = Data()
        }
      }
      if let declared = body.length, produced != declared { throw mismatch(produced) }
      try file?.close()
    } catch {
      try? file?.close()
      if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
      throw error
    }
    if let fileURL { return (.file(fileURL), fileURL) }
    return (buffer.isEmpty ? .none : .data(buffer), nil)
  }
}
