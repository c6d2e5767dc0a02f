#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Endpoint where Resource == Void {
  /// Creates an endpoint that asks for JSON, checks the status and ignores the response body,
  /// sending `body` as JSON when given.
  ///
  /// ```swift
  /// let ping = Endpoint<Void>(json: .get, url: api.appending(path: "health"))
  /// let update = Endpoint<Void>(
  ///   json: .put, url: todoURL, body: todo, expecting: .codes(204)
  /// )
  /// ```
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the URL; `query` is added after any query it has.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Content-Type` here wins over `application/json`.
  ///   - body: the value sent as JSON; none by default. An optional holding `nil` is sent
  ///     as `null`.
  ///   - timeout: how long the whole exchange may take.
  ///   - encoder: the body's encoder; a shared one with `.sortedKeys` by default.
  ///   - status: the statuses that succeed; 2xx by default.
  ///
  /// A `body` that cannot be encoded makes ``EndpointCore/Endpoint/request()`` throw
  /// ``EncodingFailure``.
  public init(
    json method: HTTPMethod,
    url: URL,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: any Encodable = NoJSONBody(),
    timeout: Duration? = nil,
    encoder: JSONEncoder = SharedCoders.encoder,
    expecting status: AcceptedStatus = .success
  ) {
    self.init(
      method,
      url: url,
      query: query,
      headers: headers,
      payload: RequestPayload.jsonBody(body, encoder: encoder),
      timeout: timeout,
      parser: .json(expecting: status)
    )
  }

  /// Creates an endpoint for a path that asks for JSON, checks the status and ignores the
  /// response body, sending `body` as JSON when given; the path is relative to `baseURL`, or to
  /// the client's ``EndpointCore/BaseURLMiddleware`` when there is none.
  ///
  /// ```swift
  /// let remove = Endpoint<Void>(json: .delete, path: "todos/\(id)", relativeTo: api)
  /// ```
  /// - Parameters:
  ///   - method: the request method.
  ///   - path: the path; interpolations are one segment each.
  ///   - baseURL: the API's base URL, whose path is kept; `nil` (the default) leaves the base to
  ///     the client.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Content-Type` here wins over `application/json`.
  ///   - body: the value sent as JSON; none by default. An optional holding `nil` is sent
  ///     as `null`.
  ///   - timeout: how long the whole exchange may take.
  ///   - encoder: the body's encoder; a shared one with `.sortedKeys` by default.
  ///   - status: the statuses that succeed; 2xx by default.
  ///
  /// A `body` that cannot be encoded makes ``EndpointCore/Endpoint/request()`` throw
  /// ``EncodingFailure``.
  public init(
    json method: HTTPMethod,
    path: URLPath,
    relativeTo baseURL: URL? = nil,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: any Encodable = NoJSONBody(),
    timeout: Duration? = nil,
    encoder: JSONEncoder = SharedCoders.encoder,
    expecting status: AcceptedStatus = .success
  ) {
    self.init(
      method,
      path: path,
      relativeTo: baseURL,
      query: query,
      headers: headers,
      payload: RequestPayload.jsonBody(body, encoder: encoder),
      timeout: timeout,
      parser: .json(expecting: status)
    )
  }

  /// Creates an endpoint that sends `body` as JSON, with the header fields after the body as
  /// TinyNetworking's README writes them: `Endpoint<()>(json: .put, url: url, body: body,
  /// headers: auth)`.
  ///
  /// The same endpoint as ``init(json:url:query:headers:body:timeout:encoder:expecting:)`` with
  /// these arguments, which new code writes with `headers:` before `body:`.
  ///
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the resolved URL.
  ///   - body: the value sent as JSON; an encoding failure is thrown by `request()`.
  ///   - headers: extra request fields.
  public init<Body: Encodable>(
    json method: HTTPMethod,
    url: URL,
    body: Body,
    headers: [String: String]
  ) {
    self.init(json: method, url: url, headers: headers, body: body)
  }
}
