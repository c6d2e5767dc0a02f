#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A request body as the client sends it.
enum UploadBody: Sendable {
  case none
  case data(Data)
  case file(URL, length: Int64)
  /// Read from the caller's stream as it is sent; never empty by declaration (a stream that
  /// declares 0 bytes is sent as `.none`).
  case stream(StreamedUpload)

  /// The length sent up front (`Content-Length`); `nil` for a stream of unknown length, sent
  /// in chunks.
  var length: Int64? {
    switch self {
    case .none: 0
    case .data(let data): Int64(data.count)
    case .file(_, let length): length
    case .stream(let upload): upload.declaredLength
    }
  }
}

/// One request on the wire: the original one, then one per redirect followed.
struct Hop: RedirectHop {
  var method: HTTPMethod
  var url: URL
  var headerFields: HTTPFields
  var body: UploadBody
  /// Whether the body may be sent again (in memory or from a file, not a stream).
  var bodyIsReplayable: Bool
  /// The trailer fields sent after a chunked body, if any.
  var trailerFields: (@Sendable () -> HTTPFields)? = nil

  var hasBody: Bool {
    switch body {
    case .none: false
    case .data(let data): !data.isEmpty
    case .file(_, let length): length > 0
    case .stream(let upload): upload.mayHaveBytes
    }
  }

  mutating func removeBody() {
    body = .none
  }
}
