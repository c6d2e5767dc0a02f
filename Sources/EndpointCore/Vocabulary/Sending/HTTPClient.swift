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
  /// // The response head too, for fields such as ETag:
  /// let (same, head) = try await client.call(User.with(id: 42).withResponse())
  /// ```
  /// - Parameters:
  ///   - endpoint: the call to make.
  ///   - bodyLimit: the most bytes of body read before the call fails.
  /// - Returns: the resource the endpoint's parser made; ``Endpoint/withResponse()`` adds the
  ///   response head.
  /// - Throws: the errors of ``Endpoint/request()``, of the client, a ``TransportFailure`` of
  ///   kind ``TransportFailure/Kind/responseTooLarge`` past `bodyLimit`,
  ///   ``UnexpectedResponse`` or the parser's error.
  public func call<Resource>(
    _ endpoint: Endpoint<Resource>,
    bodyLimit: Int = defaultBodyLimit
  ) async throws -> Resource {
    let request = try endpoint.request()
    let (response, body) = try await send(request)
    let data = try await body.collect(upTo: bodyLimit)
    return try endpoint.parse(
      response,
      data,
      method: request.method,
      url: response.url ?? request.url
    )
  }

  /// Sends the endpoint's request and returns the head with the body still to be read, once the
  /// status is one the endpoint's parser accepts: for bodies read as they arrive (lines,
  /// server-sent events, a large file), with the same status check as ``call(_:bodyLimit:)``.
  ///
  /// The endpoint's parser is not run: its accepted statuses decide, and the body is yours to
  /// read. Lines of NDJSON are one chain:
  ///
  /// ```swift
  /// // A 404 page never streams as lines: it throws UnexpectedResponse,
  /// // with the start of its body, instead.
  /// let lines = try await client.stream(Logs.follow(app: "api")).body.lines
  /// for try await line in lines { print(line) }
  /// ```
  ///
  /// - Parameters:
  ///   - endpoint: the call to make.
  ///   - errorBodyLimit: the most bytes of a rejected response's body kept on the error.
  /// - Returns: the response head and its body, still to be read (once).
  /// - Throws: the errors of ``Endpoint/request()``, of the client, or ``UnexpectedResponse`` for
  ///   a status the parser does not accept.
  public func stream<Resource>(
    _ endpoint: Endpoint<Resource>,
    errorBodyLimit: Int = 64 << 10
  ) async throws -> (response: HTTPResponse, body: HTTPBody) {
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
