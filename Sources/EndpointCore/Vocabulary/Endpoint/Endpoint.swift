import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything needed to make one HTTP call and turn its response into a typed `Resource`.
///
/// An endpoint is a plain value: build it, inspect it and parse a canned response in a unit test
/// with no network; any ``HTTPClient`` can send it.
///
/// ```swift
/// extension User {
///   static func with(id: Int) -> Endpoint<User> {
///     Endpoint(.get, path: "users/\(id)", relativeTo: api, parser: userParser)
///   }
/// }
/// // GET https://api.example.com/users/42
/// let request = try User.with(id: 42).request()
/// let user = try await client.call(User.with(id: 42))
/// ```
public struct Endpoint<Resource>: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// The URL before ``query`` is added.
  public var url: URL {
    // A URL set by hand replaces the one a path failed to resolve to.
    didSet { urlError = nil }
  }
  /// Query items added after any query ``url`` already has, percent-encoded.
  public var query: [URLQueryItem]
  /// Header fields to send, in the order given; a name may repeat.
  ///
  /// The initialisers take a `[String: String]` and order it by name; set fields in your own
  /// order with a literal or ``settingHeader(_:for:)-(String,HTTPFields.Name)``:
  ///
  /// ```swift
  /// endpoint.headers = [.accept: "text/csv", "X-Trace": "a", "X-Trace": "b"]
  /// ```
  public var headers: HTTPFields
  /// The body and its media type.
  public var payload: RequestPayload
  /// Validates the status and makes the resource from the body.
  public var parser: ResponseParser<Resource>
  /// How long the whole exchange may take, or `nil` for the client's default. Must be positive:
  /// ``request()`` throws ``InvalidRequest`` (`.timeout`) otherwise.
  public var timeout: Duration?
  /// Redirect policy, idle timeout and response size limit for this endpoint's requests, over
  /// the client's configuration; see ``RequestOptions``.
  public var options = RequestOptions()
  /// A problem found while building the URL, reported by ``request()``.
  var urlError: InvalidRequest?
  /// The first invalid header field given to an initialiser or to `settingHeader`, reported by
  /// ``request()``; the field itself is left out of ``headers``.
  var headerError: InvalidRequest?

  /// Creates an endpoint in the memberwise form of the original TinyNetworking design.
  public init(
    url: URL,
    method: HTTPMethod = .get,
    payload: RequestPayload = .empty,
    parser: ResponseParser<Resource>
  ) {
    self.init(method, url: url, payload: payload, parser: parser)
  }

  /// Creates an endpoint for a full URL.
  ///
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the URL; `query` is added after any query it has.
  ///   - query: query items, percent-encoded (`+` → `%2B`, space → `%20`).
  ///   - headers: header fields; `Content-Type` and `Accept` here win over the payload's and the
  ///     parser's.
  ///   - payload: the body.
  ///   - timeout: how long the whole exchange may take.
  ///   - parser: validates the status and parses the body.
  public init(
    _ method: HTTPMethod,
    url: URL,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    payload: RequestPayload = .empty,
    timeout: Duration? = nil,
    parser: ResponseParser<Resource>
  ) {
    self.method = method
    self.url = url
    self.query = query
    var fields = HTTPFields(minimumCapacity: headers.count)
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      do {
        try fields.append(value, for: name)
      } catch {
        if headerError == nil { headerError = error }
      }
    }
    self.headers = fields
    self.payload = payload
    self.parser = parser
    self.timeout = timeout
  }

  /// Creates an endpoint for a path, relative to an API's base URL or to the client's.
  ///
  /// With a `baseURL`, the path resolves against it at once. Without one, the client gives the
  /// base through ``BaseURLMiddleware``, so one set of endpoints serves staging and production;
  /// the endpoint's ``url`` stays relative until then.
  ///
  /// ```swift
  /// let user = Endpoint(.get, path: "users/\(id)", relativeTo: api, parser: .string)
  /// let anywhere = Endpoint(.get, path: "users/\(id)", parser: .string)
  /// let client = URLSessionHTTPClient().with(BaseURLMiddleware(api))
  /// ```
  ///
  /// Interpolated values in `path` are encoded as single segments; see ``URLPath`` for how the
  /// path resolves. An absolute path (`"https://…"`) is used as it is. A path that cannot be
  /// resolved makes ``request()`` throw ``InvalidRequest`` (`.url`).
  ///
  /// - Parameters:
  ///   - method: the request method.
  ///   - path: the path; interpolations are one segment each.
  ///   - baseURL: the API's base URL, whose path is kept; `nil` (the default) leaves the base to
  ///     the client's ``BaseURLMiddleware``.
  ///   - query: items appended to the query.
  ///   - headers: extra request fields.
  ///   - payload: the request body.
  ///   - timeout: the whole exchange's deadline, or `nil` for the client's.
  ///   - parser: turns the response into the resource.
  public init(
    _ method: HTTPMethod,
    path: URLPath,
    relativeTo baseURL: URL? = nil,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    payload: RequestPayload = .empty,
    timeout: Duration? = nil,
    parser: ResponseParser<Resource>
  ) {
    var url = baseURL ?? URL(fileURLWithPath: "/")
    var urlError: InvalidRequest?
    do {
      if let baseURL {
        url = try path.resolved(against: baseURL)
      } else {
        url = try path.relativeURL()
      }
    } catch {
      urlError = error
    }
    self.init(
      method,
      url: url,
      query: query,
      headers: headers,
      payload: payload,
      timeout: timeout,
      parser: parser
    )
    self.urlError = urlError
  }

  /// The request this endpoint describes: method, full URL, header fields and body.
  ///
  /// `Content-Type` comes from the payload and `Accept` from the parser unless ``headers`` sets
  /// them.
  /// - Throws: ``InvalidRequest`` (kind `.url`, `.method`, `.headerField`, `.timeout`, `.option` or
  ///   `.body`) naming the bad input.
  public func request() throws -> HTTPRequest {
    if let urlError { throw urlError }
    if let error = payload.deferredError { throw error }
    guard HTTPToken.isValid(method.rawValue) else { throw InvalidRequest.invalidMethod(method) }
    if let timeout, timeout <= .zero { throw InvalidRequest.invalidTimeout(timeout) }
    try options.check()
    if let headerError { throw headerError }
    var fields = headers
    if let contentType = payload.contentType, !fields.contains("Content-Type") {
      try fields.append(contentType, for: "Content-Type")
    }
    if let accept = parser.accept, !fields.contains("Accept") {
      try fields.append(accept, for: "Accept")
    }
    return HTTPRequest(
      method: method,
      url: try resolvedURL(),
      headerFields: fields,
      body: payload.body,
      timeout: timeout,
      options: options
    )
  }

  /// Validates the status and parses the body with the endpoint's parser: the step
  /// ``HTTPClient/call(_:bodyLimit:)`` runs after reading the body.
  ///
  /// Use it where you hold a real response, such as a body read from
  /// ``HTTPClient/stream(_:errorBodyLimit:)`` or a middleware's answer. To test an endpoint
  /// against canned data, the TinyNetworking form ``parse(_:_:)-(Data?,HTTPResponse?)`` takes
  /// optionals and returns a `Result`.
  ///
  /// ```swift
  /// let (response, body) = try await client.send(try endpoint.request())
  /// let data = try await body.collect(upTo: 1 << 20)
  /// let user = try endpoint.parse(response, data)
  /// ```
  /// - Parameters:
  ///   - response: the response head; its status is checked first.
  ///   - body: the whole response body.
  /// - Returns: the resource the parser made.
  /// - Throws: ``UnexpectedResponse`` for a status the parser does not accept, or the parser's
  ///   error (``ParsingFailure`` for the built-in parsers).
  public func parse(_ response: HTTPResponse, _ body: Data) throws -> Resource {
    try parse(response, body, method: method, url: response.url ?? (try? resolvedURL()) ?? url)
  }

  /// Parses with the request's method and URL at hand for the error; the URL is only built
  /// when the status is rejected.
  func parse(
    _ response: HTTPResponse,
    _ body: Data,
    method: HTTPMethod,
    url: @autoclosure () -> URL
  ) throws -> Resource {
    guard parser.acceptedStatus.contains(response.status) else {
      throw UnexpectedResponse(
        method: method,
        url: url(),
        response: response,
        body: body,
        accepted: parser.acceptedStatus
      )
    }
    return try parser.parse(response, body)
  }

  private func resolvedURL() throws(InvalidRequest) -> URL {
    if query.isEmpty { return url }
    // Byte-wise on the URL's text (its delimiters are ASCII), then one parse.
    let base = Substring(url.absoluteString)
    var beforeFragment = base
    var fragment: Substring = ""
    if let hash = base.utf8.firstIndex(of: UInt8(ascii: "#")) {
      beforeFragment = base[..<hash]
      fragment = base[hash...]
    }
    var text = ""
    text.reserveCapacity(base.utf8.count + query.count * 16)
    text += beforeFragment
    if beforeFragment.utf8.contains(UInt8(ascii: "?")) {
      let last = beforeFragment.utf8.last
      if last != UInt8(ascii: "?"), last != UInt8(ascii: "&") { text += "&" }
    } else {
      text += "?"
    }
    for (index, item) in query.enumerated() {
      if index > 0 { text += "&" }
      text += PercentEncoding.encodeComponent(item.name)
      if let value = item.value {
        text += "="
        text += PercentEncoding.encodeComponent(value)
      }
    }
    text += fragment
    guard let resolved = URL(string: text) else {
      throw InvalidRequest.invalidURL(text, reason: "the query could not be added")
    }
    return resolved
  }
}
