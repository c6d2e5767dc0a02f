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

  /// The response's status code.
  public var status: Int { response.status }

  /// The response's header fields.
  public var headerFields: HTTPFields { response.headerFields }

  /// The request, the status, the headers and a bounded body snippet; credentials in the URL
  /// and the headers are redacted.
  public var description: String {
    var lines = [
      "\(method) \(URLRedaction.redacted(url)) → \(response) (expected \(accepted))"
    ]
    for field in response.headerFields.redacted() {
      lines.append("  \(field)")
    }
    lines.append("  body: \(BodyPreview.text(of: body))")
    return lines.joined(separator: "\n")
  }
}
