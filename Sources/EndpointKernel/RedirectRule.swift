import EndpointCore
import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The SDK's own redirect rules (RFC 9110, section 15.4), shared by every transport so a
/// redirect is followed the same way whichever client sends the request.
package enum RedirectRule {
  /// Whether a redirect with `status` is followed; 300, 304, 305 and 306 are returned as they
  /// are.
  package static func isFollowed(_ status: Int) -> Bool {
    status == 301 || status == 302 || status == 303 || status == 307 || status == 308
  }

  /// Whether the field `name` must not leave the origin it was meant for: a field the SDK
  /// treats as a credential (``HTTPFields/isSensitive(_:additionalNames:)``) or one of
  /// `additionalNames`.
  package static func isOriginBound(_ name: String, additionalNames: Set<String> = []) -> Bool {
    HTTPFields.isSensitive(name, additionalNames: additionalNames)
  }

  /// The target of a redirect: `value`, the `Location` field of a `status` response to a
  /// request for `base`, resolved against `base` (RFC 9110, section 10.2.2), by the one rule
  /// every transport uses.
  ///
  /// - Throws: ``InvalidRequest`` (`.url`) when `value` is not a URL, or is not an `http` or
  ///   `https` URL with a host (a redirect never leads to `ftp:`, `file:` or `data:`).
  package static func location(
    _ value: String,
    relativeTo base: URL,
    status: Int
  ) throws(InvalidRequest) -> URL {
    guard !value.isEmpty, let url = URL(string: value, relativeTo: base)?.absoluteURL else {
      throw InvalidRequest(
        .url, reason: "the \(status) redirect's Location is not a URL",
        input: HTTPToken.quotedForMessage(value))
    }
    if let reason = HTTPURL.unsendableReason(url) {
      throw InvalidRequest(
        .url, reason: "the \(status) redirect is not followed: \(reason)",
        input: Redaction.redacted(url))
    }
    return url
  }

  /// Fields that describe a body; dropped with the body.
  package static let contentFieldNames = [
    "Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
    "Digest", "Last-Modified",
  ]

  /// The request that follows `hop` after a redirect with `status` to `location`.
  ///
  /// - Throws: ``TransportFailure`` when the method and body must be kept but the body
  ///   was a stream.
  package static func next<Body>(
    after hop: RedirectHop<Body>,
    status: Int,
    location: URL,
    credentialFieldNames: Set<String> = []
  ) throws(TransportFailure) -> RedirectHop<Body> {
    var next = hop
    next.url = location
    let dropsBody: Bool
    switch status {
    case 301, 302: dropsBody = hop.method == .post
    case 303: dropsBody = hop.method != .head
    default: dropsBody = false
    }
    if dropsBody {
      if hop.method != .head { next.method = .get }
      next.removeBody()
      next.bodyIsReplayable = true
      for name in contentFieldNames { next.headerFields.remove(name) }
    } else if !hop.bodyIsReplayable, hop.hasBody {
      throw TransportFailure.redirectBodyNotReplayable(
        method: hop.method,
        url: hop.url,
        status: status,
        location: location
      )
    }
    if !HTTPURL.sameOrigin(hop.url, location) {
      let dropped = Set(
        next.headerFields.lazy.map(\.name).filter {
          isOriginBound($0, additionalNames: credentialFieldNames)
        })
      for name in dropped { next.headerFields.remove(name) }
    }
    return next
  }

}
