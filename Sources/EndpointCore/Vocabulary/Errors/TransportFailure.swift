#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The exchange failed on the way: the connection, TLS, a timeout, a size limit, an answer that
/// is not valid HTTP, a request body that broke its declared length, a redirect, a client that
/// was shut down, or a transport that could not start.
///
/// Every client of the SDK throws this one type, with the same ``kind`` for the same failure:
/// the URLSession client, the curl client, `DefaultHTTPClient`, the middleware and the test
/// doubles. Code that catches it works on every platform, whichever client sends the request.
///
/// ```swift
/// do {
///   _ = try await client.call(endpoint)
/// } catch let error as TransportFailure where error.kind == .idleTimeout {
///   print(error)
///   // GET http://…: timed out, no bytes for 0.3 s (idle timeout 0.3 s)
/// } catch let error as TransportFailure where error.isTransient {
///   scheduleRetry()
/// }
/// ```
///
/// ``RetryMiddleware`` retries exactly the failures whose ``isTransient`` is `true`. A cancelled
/// exchange throws `CancellationError`, never this type.
public struct TransportFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// What failed. Compare with `==`; new kinds may be added, so a `switch` needs a default.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) {
      self.name = name
    }

    /// The connection was refused or could not be made, or there is no network.
    public static let cannotConnect = Kind("cannotConnect")
    /// The host name (or the proxy's) was not found.
    public static let hostNotFound = Kind("hostNotFound")
    /// The connection closed or broke before the response was complete.
    public static let connectionLost = Kind("connectionLost")
    /// The TLS handshake, the server's certificate, a pinned key or the client certificate failed.
    public static let tls = Kind("tls")
    /// The proxy refused or failed the connection.
    public static let proxy = Kind("proxy")
    /// No connection was made within the connect timeout.
    public static let connectTimeout = Kind("connectTimeout")
    /// No byte was sent or received for longer than the idle timeout.
    public static let idleTimeout = Kind("idleTimeout")
    /// The whole exchange took longer than its deadline.
    public static let deadlineExceeded = Kind("deadlineExceeded")
    /// The response body is larger than the size limit.
    public static let responseTooLarge = Kind("responseTooLarge")
    /// More of a streamed response body arrived than may wait for its reader.
    public static let bufferOverflow = Kind("bufferOverflow")
    /// A line or server-sent event of a streamed body is longer than its limit.
    public static let lineTooLong = Kind("lineTooLong")
    /// The answer is not a valid HTTP response: a broken head, an invalid `Content-Length`,
    /// an unrequested protocol switch, a body that does not match its `Content-Encoding`.
    public static let malformedResponse = Kind("malformedResponse")
    /// A request body produced more or fewer bytes than it declared.
    public static let bodyLengthMismatch = Kind("bodyLengthMismatch")
    /// More redirects than the redirect policy allows.
    public static let tooManyRedirects = Kind("tooManyRedirects")
    /// A redirect needs the request body again, but it was a stream that can be read only once.
    public static let redirectBodyNotReplayable = Kind("redirectBodyNotReplayable")
    /// The client was shut down before or while the request was sent.
    public static let shutDown = Kind("shutDown")
    /// libcurl could not be loaded, or is too old.
    public static let libraryUnavailable = Kind("libraryUnavailable")
    /// A download could not be written to its file or moved to its destination.
    public static let downloadFile = Kind("downloadFile")
    /// ``RetryMiddleware`` stopped retrying: the request's timeout, the budget of the whole call,
    /// cannot cover another attempt and the wait before it. ``TransportFailure/timeout`` is that
    /// timeout and ``TransportFailure/underlyingError`` what the last attempt threw; never
    /// transient.
    public static let retryBudgetExhausted = Kind("retryBudgetExhausted")
    /// Any other failure of the transport; ``TransportFailure/code`` and
    /// ``TransportFailure/underlyingError`` say more.
    public static let other = Kind("other")

    /// The kind's name, such as `idleTimeout`.
    public var description: String { name }
  }

  /// What failed.
  public let kind: Kind
  /// The request's method, when the failure belongs to a request.
  public let method: HTTPMethod?
  /// The URL being fetched when the exchange failed, when the failure belongs to a request.
  public let url: URL?
  /// Whether sending the same request again may succeed: `true` for a refused, reset or lost
  /// connection, a failed name lookup or a timeout; `false` for the rest.
  public let isTransient: Bool
  /// The transport's own code for the failure: libcurl's `CURLcode` on the curl client,
  /// `URLError.Code.rawValue` on the URLSession client; `nil` when the SDK found the problem.
  public var code: Int? { details.code }
  /// The error underneath, such as the `URLError` of the URLSession client.
  public let underlyingError: (any Error)?
  /// The time limit that fired: the idle, connect or deadline timeout.
  public var timeout: Duration? { details.timeout }
  /// How long the transfer had been silent (``Kind/idleTimeout``) or running
  /// (``Kind/deadlineExceeded``) when it was stopped.
  public var elapsed: Duration? { details.elapsed }
  /// The size limit that was exceeded, in bytes, or the most redirects allowed.
  public var limit: Int? { details.limit }
  /// The bytes received (``Kind/responseTooLarge``) or produced by a request body
  /// (``Kind/bodyLengthMismatch``) when the transfer was stopped.
  public var byteCount: Int64? { details.byteCount }
  /// The length a request body declared (``Kind/bodyLengthMismatch``).
  public var declaredLength: Int64? { details.declaredLength }
  /// The URLs of a redirect chain, the request's first: every URL visited
  /// (``Kind/tooManyRedirects``), or the request and the redirect's target
  /// (``Kind/redirectBodyNotReplayable``).
  public var redirects: [URL] { details.redirects }
  /// The file concerned: a download's destination, or the file of a request body.
  public var fileURL: URL? { details.fileURL }
  /// The sentence after the request, with every credential already hidden.
  private let message: String
  /// What the kind carries besides the request.
  private let details: Details

  /// Creates a failure, for a client or test double of your own.
  ///
  /// - Parameters:
  ///   - kind: What failed.
  ///   - method: The request's method, if the failure belongs to one.
  ///   - url: The request's URL, if the failure belongs to one.
  ///   - message: What happened, for the description; credentials in it are hidden.
  ///   - isTransient: Whether a new attempt may succeed; by default `true` for connection
  ///     failures and timeouts.
  ///   - underlyingError: The error underneath, if any.
  public init(
    _ kind: Kind,
    method: HTTPMethod? = nil,
    url: URL? = nil,
    message: String,
    isTransient: Bool? = nil,
    underlyingError: (any Error)? = nil
  ) {
    self.init(
      kind, method: method, url: url,
      redactedMessage: Redaction.standard.apply(toText: message), isTransient: isTransient,
      underlyingError: underlyingError)
  }

  /// The kinds a new attempt may cure, unless the transport knows better.
  static let transientKinds: Set<Kind> = [
    .cannotConnect, .hostNotFound, .connectionLost, .connectTimeout, .idleTimeout,
    .deadlineExceeded,
  ]

  /// The particulars some kinds carry.
  struct Details: Hashable, Sendable {
    var code: Int?
    var timeout: Duration?
    var elapsed: Duration?
    var limit: Int?
    var byteCount: Int64?
    var declaredLength: Int64?
    var redirects: [URL] = []
    var fileURL: URL?

    init(
      code: Int? = nil, timeout: Duration? = nil, elapsed: Duration? = nil, limit: Int? = nil,
      byteCount: Int64? = nil, declaredLength: Int64? = nil, redirects: [URL] = [],
      fileURL: URL? = nil
    ) {
      self.code = code
      self.timeout = timeout
      self.elapsed = elapsed
      self.limit = limit
      self.byteCount = byteCount
      self.declaredLength = declaredLength
      self.redirects = redirects
      self.fileURL = fileURL
    }
  }

  /// Creates a failure whose `message` is already free of credentials, with the particulars its
  /// kind carries; `isTransient` defaults to the kind's.
  package init(
    _ kind: Kind,
    method: HTTPMethod?,
    url: URL?,
    redactedMessage message: String,
    isTransient: Bool? = nil,
    underlyingError: (any Error)? = nil,
    code: Int? = nil, timeout: Duration? = nil, elapsed: Duration? = nil, limit: Int? = nil,
    byteCount: Int64? = nil, declaredLength: Int64? = nil, redirects: [URL] = [],
    fileURL: URL? = nil
  ) {
    self.kind = kind
    self.method = method
    self.url = url
    self.message = message
    self.isTransient = isTransient ?? kind.isTransientByDefault
    self.underlyingError = underlyingError
    self.details = Details(
      code: code, timeout: timeout, elapsed: elapsed, limit: limit, byteCount: byteCount,
      declaredLength: declaredLength, redirects: redirects, fileURL: fileURL)
  }

  /// A sentence naming the request (credentials in its URL redacted) and what failed.
  public var description: String {
    guard let method, let url else { return message }
    return "\(method) \(URLRedaction.redacted(url)): \(message)"
  }
}

extension TransportFailure {
  /// Whether two failures say the same: kind, request, message and particulars, leaving the
  /// underlying errors aside.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.kind == rhs.kind && lhs.method == rhs.method && lhs.url == rhs.url
      && lhs.message == rhs.message && lhs.isTransient == rhs.isTransient
      && lhs.details == rhs.details
  }

  /// Hashes what ``==(_:_:)`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(method)
    hasher.combine(url)
    hasher.combine(message)
    hasher.combine(details)
  }
}

extension TransportFailure: CustomReflectable {
  /// The kind, the request with its URL redacted and the particulars, as ``description`` shows
  /// them, for `dump(_:)`, LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    let rest: KeyValuePairs<String, Any> = [
      "kind": kind,
      "message": message,
      "isTransient": isTransient,
      "code": code as Any,
      "redirects": redirects.map { URLRedaction.redacted($0) },
      "fileURL": fileURL as Any,
    ]
    guard let method, let url else {
      return Mirror(
        self, children: rest.map { (label: $0.key, value: $0.value) }, displayStyle: .struct)
    }
    return Mirror(self, method: method, url: url, rest)
  }
}
