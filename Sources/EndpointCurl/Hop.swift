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

  var length: Int64 {
    switch self {
    case .none: 0
    case .data(let data): Int64(data.count)
    case .file(_, let length): length
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

  var hasBody: Bool { body.length > 0 }

  mutating func removeBody() {
    body = .none
  }
}
