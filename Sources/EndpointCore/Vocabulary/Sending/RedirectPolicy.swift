/// What a client does with a redirect (301, 302, 303, 307, 308 with a `Location`).
///
/// When following, the transport builds each new request itself, by the same rules whichever
/// client sends it:
/// - 307 and 308 keep the method and the body (a streamed body cannot be sent twice:
///   a ``TransportFailure`` of kind ``TransportFailure/Kind/redirectBodyNotReplayable``);
/// - 301 and 302 turn `POST` into `GET`, 303 turns every method but `HEAD` into `GET`, and
///   those drop the body and its `Content-*` fields (RFC 9110, section 15.4);
/// - every field the SDK treats as a credential (`Authorization`, `Cookie`,
///   `Proxy-Authorization`, `X-Api-Key`, `Api-Key`, and any name with `token`, `secret`,
///   `password` or `api-key` in it, as ``EndpointCore/HTTPFields/isSensitive(_:additionalNames:)``
///   decides), and the names added with ``droppingAcrossOrigins(_:)``, is dropped when the
///   redirect leaves the origin (scheme, host or port changes);
/// - only `http` and `https` targets are followed; a `Location` with another scheme fails the
///   request with ``InvalidRequest`` (`.url`);
/// - past the limit the request fails with a ``TransportFailure`` of kind
///   ``TransportFailure/Kind/tooManyRedirects``.
///
/// ```swift
/// configuration.redirectPolicy = .follow(upTo: 5)
/// // The 3xx comes back with its header fields and body:
/// configuration.redirectPolicy = .doNotFollow
/// ```
public struct RedirectPolicy: Sendable, Hashable, CustomStringConvertible {
  /// The most redirects followed; `nil` when redirects are not followed.
  public let limit: Int?

  /// Field names dropped, beside the SDK's own credential fields, when a redirect leaves the
  /// origin; lower-cased.
  public private(set) var credentialFieldNames: Set<String> = []

  private init(limit: Int?) {
    self.limit = limit
  }

  /// A copy that also drops the fields named `names` (in any case) when a redirect leaves the
  /// origin: credentials of your own that the SDK cannot recognise by name.
  ///
  /// ```swift
  /// configuration.redirectPolicy = .followDefault
  ///   .droppingAcrossOrigins(["X-Tenant-Key"])
  /// ```
  public func droppingAcrossOrigins(_ names: Set<String>) -> RedirectPolicy {
    var copy = self
    copy.credentialFieldNames.formUnion(names.map { $0.lowercased() })
    return copy
  }

  /// Follows up to `limit` redirects in a row (negative limits count as 0).
  public static func follow(upTo limit: Int) -> RedirectPolicy {
    RedirectPolicy(limit: max(0, limit))
  }

  /// Follows up to 20 redirects, like browsers.
  public static let followDefault = RedirectPolicy.follow(upTo: 20)

  /// Returns every 3xx response as it is, with its headers and body.
  public static let doNotFollow = RedirectPolicy(limit: nil)

  /// `follow up to N` or `do not follow`.
  public var description: String {
    limit.map { "follow up to \($0)" } ?? "do not follow"
  }
}
