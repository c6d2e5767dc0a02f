#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Endpoint where Resource: Decodable & SendableMetatype {
  /// Creates an endpoint that decodes a JSON response.
  ///
  /// ```swift
  /// let todos = Endpoint<[Todo]>(json: .get, url: api.appending(path: "todos"))
  /// ```
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the URL; `query` is added after any query it has.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Accept` here wins over `application/json`.
  ///   - timeout: how long the whole exchange may take.
  ///   - decoder: the decoder; a shared default one unless given.
  ///   - status: the statuses to parse; 2xx by default.
  public init(
    json method: HTTPMethod,
    url: URL,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    timeout: Duration? = nil,
    decoder: JSONDecoder = SharedCoders.decoder,
    expecting status: AcceptedStatus = .success
  ) {
    self.init(
      method,
      url: url,
      query: query,
      headers: headers,
      timeout: timeout,
      parser: .json(decoder: decoder, expecting: status)
    )
  }

  /// Creates an endpoint that sends `body` as JSON and decodes a JSON response.
  ///
  /// ```swift
  /// let draft = NewTodo(title: "Docs")
  /// let create = Endpoint<Todo>(json: .post, url: todosURL, body: draft)
  /// ```
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the URL; `query` is added after any query it has.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Content-Type` and `Accept` here win over `application/json`.
  ///   - body: the value to send.
  ///   - timeout: how long the whole exchange may take.
  ///   - encoder: the encoder; a shared one with `.sortedKeys` by default.
  ///   - decoder: the decoder; a shared default one unless given.
  ///   - status: the statuses to parse; 2xx by default.
  ///
  /// A `body` that cannot be encoded makes ``EndpointCore/Endpoint/request()`` throw
  /// ``EncodingFailure``.
  public init<Body: Encodable>(
    json method: HTTPMethod,
    url: URL,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: Body,
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
      payload: .jsonDeferringFailure(body, encoder: encoder),
      timeout: timeout,
      parser: .json(decoder: decoder, expecting: status)
    )
  }

  /// Creates an endpoint for a path relative to an API's base URL that decodes a JSON response.
  ///
  /// ```swift
  /// let user = Endpoint<User>(json: .get, path: "users/\(login)", relativeTo: api)
  /// ```
  /// Interpolated values in `path` stay single segments; see ``EndpointCore/URLPath``. A path that
  /// cannot be resolved makes ``EndpointCore/Endpoint/request()`` throw
  /// ``EndpointCore/InvalidRequest`` (`.url`).
  /// - Parameters:
  ///   - method: the request method.
  ///   - path: the path, resolved against `baseURL`.
  ///   - baseURL: the API's base URL; its path is kept.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Accept` here wins over `application/json`.
  ///   - timeout: how long the whole exchange may take.
  ///   - decoder: the decoder; a shared default one unless given.
  ///   - status: the statuses to parse; 2xx by default.
  public init(
    json method: HTTPMethod,
    path: URLPath,
    relativeTo baseURL: URL,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    timeout: Duration? = nil,
    decoder: JSONDecoder = SharedCoders.decoder,
    expecting status: AcceptedStatus = .success
  ) {
    self.init(
      method,
      path: path,
      relativeTo: baseURL,
      query: query,
      headers: headers,
      timeout: timeout,
      parser: .json(decoder: decoder, expecting: status)
    )
  }

  /// Creates an endpoint for a path relative to an API's base URL that sends `body` as JSON and
  /// decodes a JSON response.
  ///
  /// - Parameters:
  ///   - method: the request method.
  ///   - path: the path, resolved against `baseURL`.
  ///   - baseURL: the API's base URL; its path is kept.
  ///   - query: query items, percent-encoded.
  ///   - headers: header fields; `Content-Type` and `Accept` here win over `application/json`.
  ///   - body: the value to send.
  ///   - timeout: how long the whole exchange may take.
  ///   - encoder: the encoder; a shared one with `.sortedKeys` by default.
  ///   - decoder: the decoder; a shared default one unless given.
  ///   - status: the statuses to parse; 2xx by default.
  ///
  /// A `body` that cannot be encoded makes ``EndpointCore/Endpoint/request()`` throw
  /// ``EncodingFailure``.
  public init<Body: Encodable>(
    json method: HTTPMethod,
    path: URLPath,
    relativeTo baseURL: URL,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: Body,
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
      payload: .jsonDeferringFailure(body, encoder: encoder),
      timeout: timeout,
      parser: .json(decoder: decoder, expecting: status)
    )
  }

  /// Creates an endpoint that sends `body` as JSON, with the header fields after the body as
  /// TinyNetworking's README writes them: `Endpoint(json: .put, url: url, body: body, headers: auth)`.
  ///
  /// The same endpoint as `init(json:url:query:headers:body:)` with these arguments.
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

  /// Creates a JSON endpoint with a path and no base URL: the client gives the base, through
  /// ``EndpointCore/BaseURLMiddleware``, so one set of endpoints serves staging and production.
  ///
  /// ```swift
  /// let user = Endpoint<User>(json: .get, path: "users/\(login)")
  /// ```
  /// - Parameters:
  ///   - method: the request method.
  ///   - path: the path relative to the client's base URL; interpolations are one segment each.
  ///   - query: items appended to the query.
  ///   - headers: extra request fields.
  ///   - timeout: the whole exchange's deadline, or `nil` for the client's.
  ///   - decoder: the response's decoder.
  ///   - status: the statuses to parse; 2xx by default.
  public init(
    json method: HTTPMethod,
    path: URLPath,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    timeout: Duration? = nil,
    decoder: JSONDecoder = SharedCoders.decoder,
    expecting status: AcceptedStatus = .success
  ) {
    self.init(
      method,
      path: path,
      query: query,
      headers: headers,
      timeout: timeout,
      parser: .json(decoder: decoder, expecting: status)
    )
  }

  /// Creates a JSON endpoint that sends `body`, with a path and no base URL: the client gives
  /// the base, through ``EndpointCore/BaseURLMiddleware``.
  ///
  /// - Parameters:
  ///   - method: the request method.
  ///   - path: the path relative to the client's base URL; interpolations are one segment each.
  ///   - query: items appended to the query.
  ///   - headers: extra request fields.
  ///   - body: the value sent as JSON; an encoding failure is thrown by `request()`.
  ///   - timeout: the whole exchange's deadline, or `nil` for the client's.
  ///   - encoder: the body's encoder.
  ///   - decoder: the response's decoder.
  ///   - status: the statuses to parse; 2xx by default.
  public init<Body: Encodable>(
    json method: HTTPMethod,
    path: URLPath,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: Body,
    timeout: Duration? = nil,
    encoder: JSONEncoder = SharedCoders.encoder,
    decoder: JSONDecoder = SharedCoders.decoder,
    expecting status: AcceptedStatus = .success
  ) {
    self.init(
      method,
      path: path,
      query: query,
      headers: headers,
      payload: .jsonDeferringFailure(body, encoder: encoder),
      timeout: timeout,
      parser: .json(decoder: decoder, expecting: status)
    )
  }
}
