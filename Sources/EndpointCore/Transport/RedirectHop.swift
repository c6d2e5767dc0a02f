#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One request on the wire as a transport keeps it: the original one, then one per redirect
/// followed. ``RedirectRule`` builds each next hop from the previous one.
package protocol RedirectHop: Sendable {
  /// The method sent.
  var method: HTTPMethod { get set }
  /// The URL sent to.
  var url: URL { get set }
  /// The header fields sent.
  var headerFields: HTTPFields { get set }
  /// Whether the body may be sent again (in memory or from a file, not a stream).
  var bodyIsReplayable: Bool { get set }
  /// Whether the hop carries a non-empty body.
  var hasBody: Bool { get }
  /// Drops the body (a 301/302/303 that turns the request into a `GET`).
  mutating func removeBody()
}
