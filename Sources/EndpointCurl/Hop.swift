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
struct Hop: Sendable {
  var method: HTTPMethod
  var url: URL
  var headerFields: HTTPFields
  var body: UploadBody
  /// Whether the body may be sent again (in memory or from a file, not a stream).
  var bodyIsReplayable: Bool

  /// Whether `name` is a field that describes the connection or the message framing. libcurl
  /// sets those from the real body and connection; a user's value would corrupt the connection
  /// (leftover bytes read as the next request), so it is never sent.
  static func isFramingField(_ name: String) -> Bool {
    asciiCaseInsensitiveEquals(name, "content-length")
      || asciiCaseInsensitiveEquals(name, "transfer-encoding")
      || asciiCaseInsensitiveEquals(name, "host")
      || asciiCaseInsensitiveEquals(name, "connection")
  }
}

/// Compares ASCII names without allocating lowercased copies; `lowercase` must be lowercase.
func asciiCaseInsensitiveEquals(_ name: String, _ lowercase: StaticString) -> Bool {
  var name = name
  return name.withUTF8 { bytes in
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = lowercase.utf8Start
    for index in 0..<bytes.count {
      var byte = bytes[index]
      if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
      if byte != expected[index] { return false }
    }
    return true
  }
}
