#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The server answered `101 Switching Protocols` to a request that asked for no upgrade (it had
/// no `Upgrade` field), so the response was refused.
///
/// A `101` is never a final response to an ordinary request: what follows it is another
/// protocol's bytes, not an HTTP body (RFC 9110, section 15.2.2).
public struct UnrequestedProtocolSwitch: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL that answered.
  public let url: URL
  /// The `Upgrade` value of the response, if it had one.
  public let upgrade: String?

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, upgrade: String?) {
    self.method = method
    self.url = url
    self.upgrade = upgrade
  }

  /// A sentence naming the request (credentials in its URL redacted) and the protocol offered.
  public var description: String {
    let offered = upgrade.map { " to \"\($0.prefix(100))\"" } ?? ""
    return "\(method) \(URLRedaction.redacted(url)): the server switched protocols\(offered) "
      + "(101) although the request asked for no upgrade; the response was refused"
  }
}

extension UnrequestedProtocolSwitch: TransportFailure {
  /// Always `false`: the server answers the same way again.
  public var isTransient: Bool { false }
}

extension UnrequestedProtocolSwitch: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(self, method: method, url: url, ["upgrade": upgrade as Any])
  }
}
