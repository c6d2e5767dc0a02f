#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The request could not be built or sent as it is: its URL, a header field, the method, a
/// timeout, an option, the body, or a client's configuration was refused before a byte was sent.
///
/// One type for the whole family; ``kind`` says what was wrong:
///
/// ```swift
/// do {
///   _ = try await client.call(endpoint)
/// } catch let error as InvalidRequest where error.kind == .headerField {
///   print(error)
///   // Invalid value for header field "X-Note": it contains LF,
///   // which a field value must not contain
/// }
/// ```
public struct InvalidRequest: Error, Sendable, CustomStringConvertible {
  /// What was wrong. Compare with `==`:
  /// `catch let error as InvalidRequest where error.kind == .headerField`.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    /// A URL could not be built from what the endpoint was given, or is not one a transport
    /// sends (``InvalidRequest/input`` holds it).
    public static let url = Kind(name: "url")
    /// The method is not an RFC 9110 token (``InvalidRequest/method`` holds it).
    public static let method = Kind(name: "method")
    /// A header field's name or value could break the HTTP message
    /// (``InvalidRequest/fieldName`` names it; the value is never kept).
    public static let headerField = Kind(name: "headerField")
    /// A timeout is zero or negative (``InvalidRequest/timeout`` holds it).
    public static let timeout = Kind(name: "timeout")
    /// A request's ``RequestOptions`` hold a setting no transfer can use
    /// (``InvalidRequest/setting`` and ``InvalidRequest/value``).
    public static let option = Kind(name: "option")
    /// A multipart boundary cannot delimit the body (``InvalidRequest/input`` holds it).
    public static let multipartBoundary = Kind(name: "multipartBoundary")
    /// A public-key pin is not the base64 text of a 32-byte SHA-256 digest
    /// (``InvalidRequest/input`` holds the text).
    public static let publicKeyPin = Kind(name: "publicKeyPin")
    /// A file body could not be opened or read (``InvalidRequest/fileURL`` names the file).
    public static let body = Kind(name: "body")
    /// A client's configuration holds a setting no request could work with, found when the
    /// client is made (``InvalidRequest/setting`` names it).
    public static let configuration = Kind(name: "configuration")
    /// The client cannot send this request as it is, such as URLSession with a body that has
    /// trailer fields.
    public static let unsupported = Kind(name: "unsupported")
    /// A streamed body, which can be read only once, was read a second time.
    public static let bodyAlreadyConsumed = Kind(name: "bodyAlreadyConsumed")
    /// A `next` link the paginator does not follow: not a URL, not `http`/`https`, or to
    /// another origin when that was not allowed (``InvalidRequest/input`` holds the link, its
    /// credentials hidden).
    public static let pageLink = Kind(name: "pageLink")
    /// The request could not be given its credentials: the server answered `401 Unauthorized`
    /// and ``AuthorizationMiddleware``'s token provider failed to refresh the token, so the
    /// request was not sent again (``InvalidRequest/underlyingError`` is the provider's error).
    /// It belongs here rather than with ``UnexpectedResponse``: the caller handles it by getting
    /// new credentials (signing in again), not by reading an answer, and no endpoint refused
    /// the request as it would be sent.
    public static let credentials = Kind(name: "credentials")

    /// The kind's name, such as `headerField`.
    public var description: String { name }
  }

  /// What was wrong.
  public let kind: Kind
  /// The request's method when it is known; for ``Kind/method``, the method refused.
  public let method: HTTPMethod?
  /// The request's URL when it is known (shown redacted in ``description`` and the mirror).
  public let url: URL?
  /// The error underneath, if any.
  public let underlyingError: (any Error)?
  /// Why it was refused: the last clause of ``description``.
  public let reason: String
  /// The text refused, as given: a URL, path or query item (``Kind/url``, shown with its secrets
  /// hidden), a multipart boundary, or a public-key pin (up to 100 characters).
  public let input: String?
  /// The header field's name, for ``Kind/headerField``.
  public let fieldName: String?
  /// The timeout refused, for ``Kind/timeout``.
  public let timeout: Duration?
  /// The setting's name: a ``RequestOptions`` property (``Kind/option``) or a client
  /// configuration's setting, such as `connectTimeout` or `tls.clientCertificate`
  /// (``Kind/configuration``).
  public let setting: String?
  /// The value the option held, for ``Kind/option``.
  public let value: String?
  /// The body's file, for ``Kind/body``.
  public let fileURL: URL?

  // Everything before `reason` in `description`, built once by the initialiser of the kind, so
  // each kind keeps its own sentence.
  private let subject: String

  /// Creates the error, for a client, middleware or parser of your own that refuses a request.
  ///
  /// - Parameters:
  ///   - kind: what was wrong.
  ///   - reason: why it was refused.
  ///   - input: the text refused (a URL for ``Kind/url``), if any.
  ///   - method: the request's method, if known.
  ///   - url: the request's URL, if known.
  ///   - setting: the configuration setting refused, for ``Kind/configuration``.
  ///   - fileURL: the body file that could not be read, for ``Kind/body``.
  ///   - underlyingError: the error underneath, if any.
  public init(
    _ kind: Kind,
    reason: String,
    input: String? = nil,
    method: HTTPMethod? = nil,
    url: URL? = nil,
    setting: String? = nil,
    fileURL: URL? = nil,
    underlyingError: (any Error)? = nil
  ) {
    let subject: String
    switch (kind, input, method, url) {
    case (.url, let input?, _, _):
      subject = "Invalid URL \(String(reflecting: Redaction.standard.apply(toText: input)))"
    case (.unsupported, _, let method?, let url?):
      subject = "\(method) \(URLRedaction.redacted(url)) cannot be sent"
    case (.configuration, _, _, _) where setting != nil:
      subject = "invalid configuration: \(setting ?? "")"
    case (.body, _, _, _) where fileURL != nil:
      subject = "Cannot read body file \(fileURL?.path ?? "")"
    case (_, let input?, _, _):
      subject =
        "Invalid request (\(kind)) \(String(reflecting: Redaction.standard.apply(toText: input)))"
    default:
      subject = "Invalid request (\(kind))"
    }
    self.init(
      kind, subject: subject, reason: reason, input: input, method: method, url: url,
      setting: setting, fileURL: fileURL, underlyingError: underlyingError)
  }

  init(
    _ kind: Kind,
    subject: String,
    reason: String,
    input: String? = nil,
    method: HTTPMethod? = nil,
    url: URL? = nil,
    fieldName: String? = nil,
    timeout: Duration? = nil,
    setting: String? = nil,
    value: String? = nil,
    fileURL: URL? = nil,
    underlyingError: (any Error)? = nil
  ) {
    self.kind = kind
    self.subject = subject
    self.reason = reason
    self.input = input
    self.method = method
    self.url = url
    self.fieldName = fieldName
    self.timeout = timeout
    self.setting = setting
    self.value = value
    self.fileURL = fileURL
    self.underlyingError = underlyingError
  }

  /// A sentence naming what was refused and why; secrets in a URL are hidden
  /// (``Redaction/standard``), and a header field's value is never shown.
  public var description: String { "\(subject): \(reason)" }
}

extension InvalidRequest: CustomReflectable {
  /// The properties that are set, with URLs shown as ``description`` shows them, for `dump(_:)`,
  /// LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    var children: [Mirror.Child] = [("kind", kind)]
    if let method { children.append(("method", method)) }
    if let url { children.append(("url", URLRedaction.redacted(url))) }
    if let input {
      let shown = kind == .multipartBoundary || kind == .publicKeyPin
      children.append(("input", shown ? input : Redaction.standard.apply(toText: input)))
    }
    if let fieldName { children.append(("fieldName", fieldName)) }
    if let timeout { children.append(("timeout", timeout)) }
    if let setting { children.append(("setting", setting)) }
    if let value { children.append(("value", value)) }
    if let fileURL { children.append(("fileURL", fileURL)) }
    children.append(("reason", reason))
    if let underlyingError {
      children.append(("underlyingError", Redaction.standard.apply(toText: "\(underlyingError)")))
    }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
