import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The server answered with a status the endpoint's parser does not accept.
///
/// It keeps everything needed to act on the failure: the request's method and URL, the response
/// head and the whole body. `EndpointJSON` decodes typed error bodies from it.
///
/// ```swift
/// do {
///   _ = try await client.call(endpoint)
/// } catch let error as UnexpectedResponse where error.status == 404 {
///   print(error)   // GET https://api.example.com/users/1 → 404 Not Found ...
/// }
/// ```
public struct UnexpectedResponse: Error, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The request's URL.
  public let url: URL
  /// The response head.
  public let response: HTTPResponse
  /// The response body, complete.
  public let body: Data
  /// The response body, complete: the same bytes as ``body``, under the name TinyNetworking's
  /// playground used.
  public var data: Data { body }
  /// The statuses the parser would have accepted.
  public let accepted: AcceptedStatus

  /// Creates the error.
  public init(
    method: HTTPMethod,
    url: URL,
    response: HTTPResponse,
    body: Data,
    accepted: AcceptedStatus = .success
  ) {
    self.method = method
    self.url = url
    self.response = response
    self.body = body
    self.accepted = accepted
  }

  /// The error for `response` to `request`, named by the response's URL when it has one (the
  /// end of a redirect chain).
  init(
    _ response: HTTPResponse, to request: HTTPRequest, body: Data, accepted: AcceptedStatus
  ) {
    self.init(
      method: request.method,
      url: response.url ?? request.url,
      response: response,
      body: body,
      accepted: accepted
    )
  }

  /// The response's status code.
  public var status: Int { response.status }

  /// The response's header fields.
  public var headerFields: HTTPFields { response.headerFields }

  /// The most header fields ``description`` shows.
  static let shownFieldLimit = 30

  /// The request, the status, the headers and a bounded body snippet, with secrets hidden by
  /// ``Redaction/standard``: URL user information, secret query items, header fields, and the
  /// values of secret JSON keys and form fields in the body. Bounded whatever the server sent:
  /// at most 30 fields of at most 200 characters each.
  public var description: String {
    let redaction = Redaction.standard
    let shownURL = HTTPToken.cut(redaction.apply(to: url), limit: 500)
    var lines = [
      "\(method) \(shownURL) → \(response) (expected \(accepted))"
    ]
    // Bounded whatever the server sent: a few hundred characters per field, a few dozen fields.
    // Values are cut to a window that still holds a whole credential before redaction looks
    // at them, and cut again for display after.
    let all = response.headerFields
    var shown = HTTPFields(minimumCapacity: Self.shownFieldLimit)
    for field in all.prefix(Self.shownFieldLimit) {
      shown.append(checkedValue: HTTPToken.cut(field.value, limit: 4096), for: field.name)
    }
    for field in redaction.apply(to: shown) {
      lines.append("  " + HTTPToken.cut(field.description, limit: 200))
    }
    if all.count > Self.shownFieldLimit {
      lines.append("  … and \(all.count - Self.shownFieldLimit) more fields")
    }
    let preview = redaction.preview(of: body, contentType: response.headerFields["Content-Type"])
    lines.append("  body: \(preview)")
    return lines.joined(separator: "\n")
  }
}

extension UnexpectedResponse: CustomReflectable {
  /// The stored properties as ``description`` shows them, for `dump(_:)`, LLDB's `po` and failed
  /// test expectations: the URL and the fields without credentials, the body as a bounded preview
  /// with its secrets hidden.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "method": method,
        "url": Redaction.standard.apply(to: url),
        "response": response,
        "body": Redaction.standard.preview(
          of: body, contentType: response.headerFields["Content-Type"]),
        "accepted": accepted,
      ],
      displayStyle: .struct)
  }
}
