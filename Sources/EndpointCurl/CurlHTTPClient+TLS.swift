extension CurlHTTPClient {
  /// How the client secures `https` connections.
  ///
  /// Certificates are always verified (peer and host name) against the system's trust store,
  /// or against ``caBundlePath`` when it is set; there is no option to turn verification off.
  /// For a development server with its own certificate authority, point ``caBundlePath`` at that
  /// authority's certificate.
  ///
  /// ```swift
  /// var configuration = CurlHTTPClient.Configuration()
  /// configuration.tls = .init(
  ///   caBundlePath: "/etc/my-service/ca.pem",
  ///   minimumVersion: .tls13
  /// )
  /// ```
  public struct TLS: Sendable, Hashable {
    /// A PEM file of trusted certificate authorities used instead of the system's trust store;
    /// `nil` (the default) for the system's.
    public var caBundlePath: String?
    /// The oldest TLS version accepted. Defaults to ``Version/tls12``.
    public var minimumVersion: Version

    /// Creates TLS settings.
    public init(caBundlePath: String? = nil, minimumVersion: Version = .tls12) {
      self.caBundlePath = caBundlePath
      self.minimumVersion = minimumVersion
    }

    /// A TLS protocol version.
    public enum Version: Sendable, Hashable, CaseIterable {
      /// TLS 1.2.
      case tls12
      /// TLS 1.3.
      case tls13
    }
  }
}
