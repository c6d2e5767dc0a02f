#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Endpoint {
  /// TinyNetworking's name for `Resource`, so its extensions (`where A == Image`) read the same.
  public typealias A = Resource

  /// Creates an endpoint whose resource is made by a closure over the body, in TinyNetworking's
  /// style.
  ///
  /// The closure receives the body, or `nil` when the response has none, and returns a
  /// `Result`. Statuses outside `status` throw ``UnexpectedResponse`` before it runs.
  ///
  /// ```swift
  /// struct ImageError: Error {}
  ///
  /// let avatar = Endpoint<Data>(.get, url: avatarURL) { data in
  ///   Result {
  ///     let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
  ///     guard let data, data.starts(with: signature) else { throw ImageError() }
  ///     return data
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - method: the request method.
  ///   - url: the resolved URL.
  ///   - query: items appended to the URL's query.
  ///   - headers: extra request fields.
  ///   - payload: the request body.
  ///   - accept: the media type sent as `Accept`, or `nil` for none.
  ///   - timeout: the whole exchange's deadline, or `nil` for the client's.
  ///   - status: the statuses that reach `parse`; 2xx by default.
  ///   - parse: makes the resource from the body.
  public init(
    _ method: HTTPMethod,
    url: URL,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    payload: RequestPayload = .empty,
    accept: String? = nil,
    timeout: Duration? = nil,
    expecting status: AcceptedStatus = .success,
    parse: @escaping @Sendable (Data?) -> Result<Resource, any Error>
  ) {
    self.init(
      method,
      url: url,
      query: query,
      headers: headers,
      payload: payload,
      timeout: timeout,
      parser: ResponseParser(accept: accept, acceptedStatus: status) { _, body in
        try parse(body.isEmpty ? nil : body).get()
      }
    )
  }

  /// Parses canned data without a network, returning the outcome as a `Result`: the way to
  /// test an endpoint synchronously, as TinyNetworking wrote it.
  ///
  /// Both arguments may be `nil`, and nothing throws until `get()`. Where you hold a real
  /// response and its body, ``parse(_:_:)-(HTTPResponse,Data)`` takes them in the order
  /// ``HTTPClient/send(_:)`` returns them and throws.
  ///
  /// A `nil` response stands for `200 OK` with no header fields; a `nil` body for an empty one.
  /// The status is checked first, as in a real call.
  ///
  /// ```swift
  /// #expect(throws: (any Error).self) { try avatar.parse(nil, nil).get() }
  /// #expect(throws: Never.self) { try avatar.parse(pngBytes, nil).get() }
  /// ```
  /// - Parameters:
  ///   - data: the response body, or `nil` for none.
  ///   - response: the response head, or `nil` for `200 OK`.
  /// - Returns: the resource, or the error ``parse(_:_:)-(HTTPResponse,Data)`` would throw.
  public func parse(_ data: Data?, _ response: HTTPResponse?) -> Result<Resource, any Error> {
    Result { try parse(response ?? HTTPResponse(status: 200), data ?? Data()) }
  }
}
