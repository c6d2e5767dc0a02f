import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A request body as a transport keeps it for one hop: URLSession's data or file, the curl
/// client's data, file or stream.
package protocol HopBody: Sendable {
  /// No body.
  static var none: Self { get }
  /// Whether the body may carry bytes: a non-empty one does, and so does a stream of unknown
  /// length.
  var mayHaveBytes: Bool { get }
}

/// One request on the wire as a transport keeps it: the original one, then one per redirect
/// followed. ``RedirectRule`` builds each next hop from the previous one; each transport brings
/// its own kind of body.
package struct RedirectHop<Body: HopBody>: Sendable {
  /// The method sent.
  package var method: HTTPMethod
  /// The URL sent to.
  package var url: URL
  /// The header fields sent.
  package var headerFields: HTTPFields
  /// The body sent.
  package var body: Body
  /// Whether the body may be sent again (in memory or from a file, not a stream).
  package var bodyIsReplayable: Bool
  /// The trailer fields to send after a chunked body, asked for when the body has been sent.
  /// The curl client sends them; URLSession has no way to.
  package var trailerFields: (@Sendable () -> HTTPFields)?

  /// Creates a hop.
  package init(
    method: HTTPMethod,
    url: URL,
    headerFields: HTTPFields,
    body: Body,
    bodyIsReplayable: Bool,
    trailerFields: (@Sendable () -> HTTPFields)? = nil
  ) {
    self.method = method
    self.url = url
    self.headerFields = headerFields
    self.body = body
    self.bodyIsReplayable = bodyIsReplayable
    self.trailerFields = trailerFields
  }

  /// Whether the hop carries a body that may have bytes.
  package var hasBody: Bool { body.mayHaveBytes }

  /// Drops the body (a 301/302/303 that turns the request into a `GET`).
  package mutating func removeBody() {
    body = .none
  }
}
