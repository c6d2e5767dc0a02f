/// Transfer settings for one request, over the client's configuration.
///
/// A program that needs one download without a size limit, or one call that must not follow
/// redirects, sets them on that endpoint or request instead of keeping a second client. Every
/// setting left `nil` falls back to the client's configuration. Both ``HTTPClient`` transports of
/// the SDK apply them (`URLSessionHTTPClient` and `CurlHTTPClient`); the deadline is
/// ``HTTPRequest/timeout``.
///
/// ```swift
/// var export = Endpoint(.get, url: exportURL, parser: .data)
/// export.options.maximumResponseSize = .unlimited
/// export.options.idleTimeout = .limited(.seconds(120))
/// export.options.redirectPolicy = .doNotFollow
/// ```
public struct RequestOptions: Sendable, Hashable, CustomStringConvertible {
  /// A bound that is either lifted or set to a value.
  public enum Limit<Value: Sendable & Hashable>: Sendable, Hashable {
    /// No bound for this request, whatever the client's is.
    case unlimited
    /// This bound for this request.
    case limited(Value)
  }

  /// Which redirects this request follows, or `nil` for the client's policy.
  public var redirectPolicy: RedirectPolicy?
  /// How long this request may go without receiving a byte, or `nil` for the client's.
  public var idleTimeout: Limit<Duration>?
  /// The most bytes this request's response body may have, or `nil` for the client's; a
  /// compressed body counts as decoded.
  public var maximumResponseSize: Limit<Int>?

  /// Creates options; every setting left `nil` is the client's.
  ///
  /// - Parameters:
  ///   - redirectPolicy: which redirects to follow.
  ///   - idleTimeout: how long the transfer may go without receiving a byte.
  ///   - maximumResponseSize: the most bytes the response body may have.
  public init(
    redirectPolicy: RedirectPolicy? = nil,
    idleTimeout: Limit<Duration>? = nil,
    maximumResponseSize: Limit<Int>? = nil
  ) {
    self.redirectPolicy = redirectPolicy
    self.idleTimeout = idleTimeout
    self.maximumResponseSize = maximumResponseSize
  }

  /// Whether every setting is the client's.
  public var isEmpty: Bool { self == RequestOptions() }

  /// The settings that differ from the client's, for logs: `client's` when none do.
  public var description: String {
    var parts: [String] = []
    if let redirectPolicy { parts.append("redirects: \(redirectPolicy)") }
    switch idleTimeout {
    case nil: break
    case .unlimited?: parts.append("idle timeout: none")
    case .limited(let value)?: parts.append("idle timeout: \(value)")
    }
    switch maximumResponseSize {
    case nil: break
    case .unlimited?: parts.append("maximum response size: none")
    case .limited(let value)?: parts.append("maximum response size: \(value) bytes")
    }
    return parts.isEmpty ? "client's" : parts.joined(separator: ", ")
  }

  /// Throws ``InvalidRequest`` (`.option`) for a setting no transfer can use.
  func check() throws(InvalidRequest) {
    if case .limited(let value)? = idleTimeout, value <= .zero {
      throw InvalidRequest.invalidOption(
        "idleTimeout",
        value: "\(value)",
        reason: "a timeout must be greater than zero; use .unlimited for none, nil for the "
          + "client's"
      )
    }
    if case .limited(let value)? = maximumResponseSize, value < 0 {
      throw InvalidRequest.invalidOption(
        "maximumResponseSize",
        value: "\(value)",
        reason: "a size cannot be negative; use .unlimited for none, nil for the client's"
      )
    }
  }
}
