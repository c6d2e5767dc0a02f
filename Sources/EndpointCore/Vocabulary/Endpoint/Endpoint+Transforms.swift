#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Endpoint {
  /// An endpoint for the same call whose resource is transformed, such as a wire type mapped to a
  /// domain type.
  ///
  /// ```swift
  /// let titles: Endpoint<[String]> = Todo.all().map { $0.map(\.title) }
  /// ```
  public func map<NewResource>(
    _ transform: @escaping @Sendable (Resource) -> NewResource
  ) -> Endpoint<NewResource> {
    replacingParser(parser.map(transform))
  }

  /// Like ``map(_:)``, with a transform that can throw; its error is what the call throws.
  public func tryMap<NewResource>(
    _ transform: @escaping @Sendable (Resource) throws -> NewResource
  ) -> Endpoint<NewResource> {
    replacingParser(parser.map(transform))
  }

  /// Like ``map(_:)``, where `nil` from the transform becomes a ``ParsingFailure``.
  public func compactMap<NewResource>(
    _ transform: @escaping @Sendable (Resource) -> NewResource?
  ) -> Endpoint<NewResource> {
    replacingParser(
      ResponseParser(accept: parser.accept, acceptedStatus: parser.acceptedStatus) {
        [parser] response, body in
        guard let value = transform(try parser.parse(response, body)) else {
          throw ParsingFailure(
            type: String(describing: NewResource.self),
            reason: "the transform returned nil",
            body: body
          )
        }
        return value
      }
    )
  }

  /// An endpoint for the same call whose resource comes with the response head, for header
  /// fields such as `ETag`, `Link` or a rate limit beside the parsed value.
  ///
  /// The status is checked and the body parsed as before; any client verb that takes an
  /// endpoint returns the pair.
  ///
  /// ```swift
  /// let endpoint = User.with(id: 42).withResponse()
  /// let (user, response) = try await client.call(endpoint)
  /// let etag = response.headerFields[.eTag]
  /// ```
  /// - Returns: an endpoint whose resource is the parsed value and the response head.
  public func withResponse() -> Endpoint<(resource: Resource, response: HTTPResponse)> {
    replacingParser(
      ResponseParser(accept: parser.accept, acceptedStatus: parser.acceptedStatus) {
        [parser] response, body in
        (try parser.parse(response, body), response)
      }
    )
  }

  /// A copy with the header field `name` set to `value`, replacing any field of that name in any
  /// case.
  ///
  /// The field takes the place of the first one it replaces, or goes last. An invalid name or
  /// value is reported by ``request()`` as ``InvalidRequest`` (`.headerField`).
  public func settingHeader(_ value: String, for name: String) -> Endpoint {
    var copy = self
    do {
      try copy.headers.set(value, for: name)
    } catch {
      if copy.headerError == nil { copy.headerError = error }
    }
    return copy
  }

  /// A copy without the header field `name`, in any case.
  public func removingHeader(_ name: String) -> Endpoint {
    var copy = self
    copy.headers.remove(name)
    return copy
  }

  /// A copy with the header field `name` set to `value`: the typed form,
  /// `endpoint.settingHeader("Bearer \(token)", for: .authorization)`.
  ///
  /// - Parameters:
  ///   - value: the field's value; checked when the request is made.
  ///   - name: the field's name.
  /// - Returns: the endpoint with the field replaced or added.
  public func settingHeader(_ value: String, for name: HTTPFields.Name) -> Endpoint {
    settingHeader(value, for: name.rawValue)
  }

  /// A copy without the header field `name`: the typed form, `removingHeader(.cookie)`.
  ///
  /// - Parameter name: the field's name.
  /// - Returns: the endpoint without that field.
  public func removingHeader(_ name: HTTPFields.Name) -> Endpoint {
    removingHeader(name.rawValue)
  }

  /// A copy with `items` added after the existing query items.
  public func addingQuery(_ items: [URLQueryItem]) -> Endpoint {
    var copy = self
    copy.query += items
    return copy
  }

  /// A copy with one query item added.
  public func addingQuery(_ name: String, _ value: String?) -> Endpoint {
    addingQuery([URLQueryItem(name: name, value: value)])
  }

  /// A copy whose whole exchange may take at most `timeout`.
  public func timeout(_ timeout: Duration?) -> Endpoint {
    var copy = self
    copy.timeout = timeout
    return copy
  }

  /// A copy that follows redirects by `policy`, whatever the client's policy is.
  ///
  /// ```swift
  /// let probe = Endpoint(.head, url: link, parser: .data)
  ///   .following(.doNotFollow)
  /// ```
  public func following(_ policy: RedirectPolicy) -> Endpoint {
    var copy = self
    copy.options.redirectPolicy = policy
    return copy
  }

  /// A copy whose transfer may go at most `limit` without receiving a byte, whatever the
  /// client's idle timeout is.
  public func idleTimeout(_ limit: RequestOptions.Limit<Duration>) -> Endpoint {
    var copy = self
    copy.options.idleTimeout = limit
    return copy
  }

  /// A copy whose response body may have at most `limit` bytes, whatever the client's limit is.
  ///
  /// ```swift
  /// let backup = Endpoint(.get, url: backupURL, parser: .data)
  ///   .maximumResponseSize(.unlimited)
  /// ```
  public func maximumResponseSize(_ limit: RequestOptions.Limit<Int>) -> Endpoint {
    var copy = self
    copy.options.maximumResponseSize = limit
    return copy
  }

  /// A copy whose parser accepts other statuses.
  public func accepting(_ status: AcceptedStatus) -> Endpoint {
    var copy = self
    copy.parser.acceptedStatus = status
    return copy
  }

  private func replacingParser<NewResource>(
    _ parser: ResponseParser<NewResource>
  ) -> Endpoint<NewResource> {
    var endpoint = Endpoint<NewResource>(
      method,
      url: url,
      query: query,
      payload: payload,
      timeout: timeout,
      parser: parser
    )
    endpoint.headers = headers
    endpoint.options = options
    endpoint.urlError = urlError
    endpoint.headerError = headerError
    return endpoint
  }
}
