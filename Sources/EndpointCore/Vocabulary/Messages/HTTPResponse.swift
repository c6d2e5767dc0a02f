#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The head of an HTTP response: status, header fields and the URL that answered.
///
/// The body travels beside it as an ``HTTPBody``, so parsers and test doubles never need a
/// platform response type.
public struct HTTPResponse: Sendable, Hashable, CustomStringConvertible {
  /// The status code, such as `200` or `404`.
  public var status: Int
  /// The header fields, in the order the server sent them.
  public var headerFields: HTTPFields
  /// The URL of the response; after redirects, the last one.
  public var url: URL?

  /// Creates a response head.
  public init(status: Int, headerFields: HTTPFields = HTTPFields(), url: URL? = nil) {
    self.status = status
    self.headerFields = headerFields
    self.url = url
  }

  /// The `Content-Type` field's media type without parameters, lowercased (`"application/json"`).
  ///
  /// `nil` when there is no `Content-Type` or it is empty; with several, the first one counts.
  public var mediaType: String? {
    guard let value = headerFields.firstValue(for: "Content-Type") else { return nil }
    let type = (value.split(separator: ";", maxSplits: 1).first ?? "").trimmed(" \t")
    return type.isEmpty ? nil : type.lowercased()
  }

  /// The `charset` parameter of `Content-Type`, lowercased, if present.
  public var charset: String? {
    guard let value = headerFields.firstValue(for: "Content-Type") else { return nil }
    for parameter in value.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, pair[0].trimmed(" \t").lowercased() == "charset" else { continue }
      let charset = pair[1].trimmed(" \t\"")
      return charset.isEmpty ? nil : charset.lowercased()
    }
    return nil
  }

  /// `status reason`, such as `404 Not Found`.
  public var description: String {
    let reason = HTTPResponse.reasonPhrase(for: status)
    return reason.isEmpty ? "\(status)" : "\(status) \(reason)"
  }

  /// The standard reason phrase for a status code, or `""` for an unknown one.
  public static func reasonPhrase(for status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 101: "Switching Protocols"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 406: "Not Acceptable"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 410: "Gone"
    case 412: "Precondition Failed"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 418: "I'm a teapot"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: ""
    }
  }
}

extension StringProtocol {
  /// The text without leading and trailing characters from `characters`.
  func trimmed(_ characters: String) -> Substring {
    let text = Substring(self)
    let start = text.firstIndex { !characters.contains($0) } ?? text.endIndex
    let end = text.lastIndex { !characters.contains($0) }.map(text.index(after:)) ?? start
    return start < end ? text[start..<end] : text[start..<start]
  }
}

extension HTTPResponse: CustomReflectable {
  /// The status, the fields with their credentials hidden and the URL with its user information and
  /// secret query values hidden (``Redaction/redacted(_:additionalQueryNames:)``), for `dump(_:)` and LLDB's `po`.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "status": status,
        "headerFields": headerFields.redacted(),
        "url": url.map { URLRedaction.redacted($0) } as Any,
      ],
      displayStyle: .struct)
  }
}
