#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient {
  /// Which proxy the client goes through.
  ///
  /// The default is ``none``: the client ignores the `http_proxy`, `https_proxy`, `all_proxy`
  /// and `no_proxy` environment variables that libcurl would otherwise read, so a server's
  /// traffic never changes route because of its environment. Choose ``environment`` to honour
  /// them, or name a proxy with ``url(_:bypassing:)``.
  ///
  /// ```swift
  /// let proxy = URL(string: "http://proxy.internal:3128")!
  /// configuration.proxy = .url(proxy, bypassing: ["localhost"])
  /// configuration.proxy = .environment
  /// ```
  public struct Proxy: Sendable, Hashable, CustomStringConvertible {
    enum Source: Sendable, Hashable {
      case none
      case environment
      case explicit(URL, bypassing: [String])
    }

    let source: Source

    /// No proxy, whatever the environment says (the default).
    public static let none = Proxy(source: .none)

    /// The proxy named by the environment variables libcurl reads: `http_proxy`,
    /// `https_proxy`, `all_proxy` and `no_proxy` (lowercase `http_proxy` only, as libcurl
    /// does).
    public static let environment = Proxy(source: .environment)

    /// The proxy at `url` (`http://`, `https://`, `socks5://`…), except for the hosts in
    /// `bypassing` (host names or domain suffixes; `"*"` for every host).
    public static func url(_ url: URL, bypassing: [String] = []) -> Proxy {
      Proxy(source: .explicit(url, bypassing: bypassing))
    }

    /// `no proxy`, `environment proxy` or the proxy's URL, credentials redacted.
    public var description: String {
      switch source {
      case .none: "no proxy"
      case .environment: "environment proxy"
      case .explicit(let url, _): "proxy \(Redaction.redacted(url))"
      }
    }
  }
}

extension CurlHTTPClient.Proxy: CustomReflectable {
  /// The proxy as ``description`` shows it, its credentials hidden, and the hosts it is bypassed
  /// for, for `dump(_:)` and LLDB's `po`.
  public var customMirror: Mirror {
    let bypassing: [String] =
      if case .explicit(_, let hosts) = source { hosts } else { [] }
    return Mirror(
      self, children: ["proxy": description, "bypassing": bypassing], displayStyle: .struct)
  }
}
