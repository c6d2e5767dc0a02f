#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Endpoint where Resource: Decodable & SendableMetatype {
  /// Creates an endpoint that decodes a JSON response, sending `body` as JSON when given.
  ///
  /// ```swift
  /// let todos = Endpoint<[Todo]>(json: .get, url: api.appending(path: "todos"))
  /// let draft = NewTodo(title: "Docs")
  /// let create = Endpoint<Todo>(json: .post, url: todosURL, body: draft)
  /// ```
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the URL; `query` is added after any query it has.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Content-Type` and `Accept` here win over `application/json`.
  ///   - body: the value sent as JSON; none by default. An optional holding `nil` is sent
  ///     as `null`.
  ///   - timeout: how long the whole exchange may take.
  ///   - encoder: the body's encoder; a shared one with `.sortedKeys` by default.
  ///   - decoder: the response's decoder; a shared default one unless given.
  ///   - status: the statuses to parse; 2xx by default.
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
    decoder: JSONDecoder = SharedCoders.decoder,
    expecting status: AcceptedStatus = .success
  ) {
    self.init(
      method,
      url: url,
      query: query,
      headers: headers,
      payload: RequestPayload.jsonBody(body, encoder: encoder),
      timeout: timeout,
      parser: .json(decoder: decoder, expecting: status)
    )
  }

  /// Creates an endpoint for a path that decodes a JSON response, sending `body` as JSON when
  /// given; the path is relative to `baseURL`, or to the client's ``EndpointCore/BaseURLMiddleware``
  /// when there is none.
  ///
  /// ```swift
  /// let user = Endpoint<User>(json: .get, path: "users/\(login)", relativeTo: api)
  /// // The base URL from the client's BaseURLMiddleware:
  /// let same = Endpoint<User>(json: .get, path: "users/\(login)")
  /// ```
  /// Interpolated values in `path` stay single segments; see ``EndpointCore/URLPath``. A path that
  /// cannot be resolved makes ``EndpointCore/Endpoint/request()`` throw
  /// ``EndpointCore/InvalidRequest`` (`.url`).
  /// - Parameters:
  ///   - method: the request method.
  ///   - path: the path; interpolations are one segment each.
  ///   - baseURL: the API's base URL, whose path is kept; `nil` (the default) leaves the base to
  ///     the client.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Content-Type` and `Accept` here win over `application/json`.
  ///   - body: the value sent as JSON; none by default. An optional holding `nil` is sent
  ///     as `null`.
  ///   - timeout: how long the whole exchange may take.
  ///   - encoder: the body's encoder; a shared one with `.sortedKeys` by default.
  ///   - decoder: the response's decoder; a shared default one unless given.
  ///   - status: the statuses to parse; 2xx by default.
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
    decoder: JSONDecoder = SharedCoders.decoder,
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
      parser: .json(decoder: decoder, expecting: status)
    )
  }
}
