#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A resolved HTTP request: what a transport sends.
///
/// ``Endpoint/request()`` produces one; middleware and test doubles read and change it. It is a
/// plain value: nothing in it refers to a transport.
public struct HTTPRequest: Sendable, CustomStringConvertible {
  /// The request method.
  public var method: HTTPMethod
  /// The full URL, query included.
  public var url: URL
  /// The header fields, in order.
  public var headerFields: HTTPFields
  /// The body, or `nil` for none.
  public var body: HTTPBody?
  /// How long the whole exchange may take, or `nil` for the client's default.
  public var timeout: Duration?
  /// Redirect policy, idle timeout and response size limit for this request; `nil` settings
  /// are the client's.
  public var options: RequestOptions

  /// Creates a request.
  ///
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the full URL, query included.
  ///   - headerFields: the header fields, in order.
  ///   - body: the body, or `nil` for none.
  ///   - timeout: how long the whole exchange may take, or `nil` for the client's default.
  ///   - options: settings over the client's configuration for this request.
  public init(
    method: HTTPMethod,
    url: URL,
    headerFields: HTTPFields = HTTPFields(),
    body: HTTPBody? = nil,
    timeout: Duration? = nil,
    options: RequestOptions = RequestOptions()
  ) {
    self.method = method
    self.url = url
    self.headerFields = headerFields
    self.body = body
    self.timeout = timeout
    self.options = options
  }

  /// `METHOD URL`, with credentials in the URL redacted (see ``Redaction/redacted(_:additionalQueryNames:)``).
  public var description: String { "\(method) \(URLRedaction.redacted(url))" }
}

extension HTTPRequest: CustomReflectable {
  /// The stored properties as `dump(_:)`, LLDB's `po` and a failed `#expect` show them: the URL as
  /// ``description`` shows it, the fields' credentials hidden, a body in memory as a bounded
  /// preview with its secrets hidden.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "headerFields": headerFields.redacted(),
        "body": body?.shownContent(contentType: headerFields["Content-Type"]) as Any,
        "timeout": timeout as Any,
        "options": options,
      ])
  }
}
