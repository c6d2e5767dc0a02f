#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Anything that can send an ``HTTPRequest``: a transport, a middleware chain or a test double.
///
/// There is one primitive, ``send(_:)``; buffered calls, streaming, uploads and downloads are all
/// built on it, so every middleware and test double applies to all of them.
public protocol HTTPClient: Sendable {
  /// Sends a request; returns the response head as soon as it arrives and the body as it comes.
  ///
  /// A status that is not 2xx is not an error here: it is returned like any other.
  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody)
}

extension HTTPClient {
  /// The largest body ``call(_:bodyLimit:)`` reads by default: 32 MiB.
  public static var defaultBodyLimit: Int { 32 * 1024 * 1024 }

  /// Sends the endpoint's request, reads the body (at most `bodyLimit` bytes), then validates and
  /// parses it with the endpoint's parser.
  ///
  /// ```swift
  /// let user = try await client.call(User.with(id: 42))
  /// ```
  /// - Throws: the errors of ``Endpoint/request()``, of the client, a ``TransportFailure`` of
  ///   kind ``TransportFailure/Kind/responseTooLarge`` past `bodyLimit`,
  ///   ``UnexpectedResponse`` or the parser's error.
  public func call<Resource>(
    _ endpoint: Endpoint<Resource>,
    bodyLimit: Int = defaultBodyLimit
  ) async throws -> Resource {
    try await response(endpoint, bodyLimit: bodyLimit).resource
  }

  /// Like ``call(_:bodyLimit:)``, also returning the response head (for headers such as `ETag`
  /// or pagination links).
  public func response<Resource>(
    _ endpoint: Endpoint<Resource>,
    bodyLimit: Int = defaultBodyLimit
  ) async throws -> (resource: Resource, response: HTTPResponse) {
    let request = try endpoint.request()
    let (response, body) = try await send(request)
    let data = try await body.collect(upTo: bodyLimit)
    let resource = try endpoint.parse(
      response,
      data,
      method: request.method,
      url: response.url ?? request.url
    )
    return (resource, response)
  }

  /// Sends the endpoint's request and returns the head with the body still to be read, once the
  /// status is one the endpoint's parser accepts: for bodies read as they arrive (lines,
  /// server-sent events, a large file), with the same status check as ``call(_:bodyLimit:)``.
  ///
  /// ```swift
  /// let (_, body) = try await client.stream(Logs.follow(app: "api"))
  /// // A 404 page never streams as lines: it throws instead.
  /// for try await line in body.lines { print(line) }
  /// ```
  ///
  /// - Parameters:
  ///   - endpoint: the call to make.
  ///   - errorBodyLimit: the most bytes of a rejected response's body kept on the error.
  /// - Throws: the errors of ``Endpoint/request()``, of the client, or ``UnexpectedResponse`` for
  ///   a status the parser does not accept.
  public func stream<Resource>(
    _ endpoint: Endpoint<Resource>,
    errorBodyLimit: Int = 64 << 10
  ) async throws -> (HTTPResponse, HTTPBody) {
    let request = try endpoint.request()
    let (response, body) = try await send(request)
    let accepted = endpoint.parser.acceptedStatus
    guard accepted.contains(response.status) else {
      var kept = Data()
      for try await chunk in body {
        kept.append(chunk.prefix(errorBodyLimit - kept.count))
        if kept.count >= errorBodyLimit { break }
      }
      throw UnexpectedResponse(
        method: request.method,
        url: response.url ?? request.url,
        response: response,
        body: kept,
        accepted: accepted
      )
    }
    return (response, body)
  }
}
