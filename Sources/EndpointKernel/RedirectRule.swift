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

  /// The one `Location` of a redirect among `values` (each `Location` field of a `status`
  /// response to `method` on `url`), or `nil` when it has none: such a redirect is the final
  /// response, as every transport returns it.
  ///
  /// - Throws: ``TransportFailure`` (`.malformedResponse`) when the fields name different
  ///   targets: the SDK follows neither rather than pick one.
  package static func location(
    in values: [String],
    status: Int,
    method: HTTPMethod,
    url: URL
  ) throws(TransportFailure) -> String? {
    guard let first = values.first else { return nil }
    guard values.contains(where: { $0 != first }) else { return first }
    let shown = values.prefix(3).map { value in
      let redaction = Redaction.standard
      let redacted = URL(string: value).map(redaction.apply(to:)) ?? redaction.apply(toText: value)
      return HTTPToken.quotedForMessage(redacted, limit: 60)
    }
    throw TransportFailure.malformedResponse(
      method: method,
      url: url,
      reason: "the \(status) redirect has \(values.count) different Location fields "
        + "(\(shown.joined(separator: ", "))); it is not followed"
    )
  }

  /// The target of a redirect: `value`, the `Location` field of a `status` response to a
  /// request for `base`, resolved against `base` (RFC 9110, section 10.2.2), by the one rule
  /// every transport uses.
  ///
  /// User information written in `value` (`user:password@`) is dropped: credentials the server
  /// chose never reach the target, where both transports would send them as `Basic`
  /// credentials. (A relative `value` keeps the user information of `base`, the request's own.)
  ///
  /// - Throws: ``InvalidRequest`` (`.url`) when `value` is not a URL, or is not an `http` or
  ///   `https` URL with a host (a redirect never leads to `ftp:`, `file:` or `data:`).
  package static func location(
    _ value: String,
    relativeTo base: URL,
    status: Int
  ) throws(InvalidRequest) -> URL {
    guard !value.isEmpty, var url = URL(string: value, relativeTo: base)?.absoluteURL else {
      throw InvalidRequest(
        .url, reason: "the \(status) redirect's Location is not a URL",
        input: HTTPToken.quotedForMessage(value))
    }
    // Only the Location's own: the request's user information, which a relative Location
    // keeps within the origin, stays the caller's choice.
    if let own = URL(string: value), own.user != nil || own.password != nil {
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      components?.user = nil
      components?.password = nil
      guard let plain = components?.url else {
        throw InvalidRequest(
          .url, reason: "the \(status) redirect's Location is not a URL",
          input: Redaction.redacted(url))
      }
      url = plain
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
