import EndpointKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A request body as the client sends it.
enum UploadBody: HopBody {
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

  var mayHaveBytes: Bool {
    switch self {
    case .none: false
    case .data(let data): !data.isEmpty
    case .file(_, let length): length > 0
    case .stream(let upload): upload.mayHaveBytes
    }
  }
}

/// One request on the wire: the original one, then one per redirect followed.
typealias Hop = RedirectHop<UploadBody>
