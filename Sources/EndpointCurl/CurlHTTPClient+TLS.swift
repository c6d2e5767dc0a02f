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
  ///   requiresTLS13: true
  /// )
  /// ```
  ///
  /// For mutual TLS, give the client's own certificate and key with ``clientCertificate``; to
  /// accept only servers whose key is known in advance, list their keys in
  /// ``pinnedPublicKeys``:
  ///
  /// ```swift
  /// configuration.tls.clientCertificate = .init(
  ///   certificatePath: "/etc/my-service/client.pem",
  ///   privateKeyPath: "/etc/my-service/client-key.pem",
  ///   privateKeyPassword: ProcessInfo.processInfo.environment["CLIENT_KEY_PASSWORD"]
  /// )
  /// configuration.tls.pinnedPublicKeys = [
  ///   try PublicKeyPin("sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="),
  ///   try PublicKeyPin("sha256//sRHdihwgkaib1P1gxX8HFszlD+7/gTfNvuAybgLPNis="),
  /// ]
  /// ```
  public struct TLS: Sendable, Hashable {
    /// A PEM file of trusted certificate authorities used instead of the system's trust store;
    /// `nil` (the default) for the system's.
    public var caBundlePath: String?
    /// Whether only TLS 1.3 is accepted; `false` (the default) accepts TLS 1.2 and 1.3.
    public var requiresTLS13: Bool
    /// The certificate and key the client presents when a server asks for one (mutual TLS);
    /// `nil` (the default) for none.
    public var clientCertificate: ClientCertificate?
    /// The public keys a server may present; empty (the default) for any key whose certificate
    /// verifies.
    ///
    /// When not empty, a server whose certificate verifies but whose key matches none of them
    /// is refused after the handshake and before a byte of the request is sent, with a
    /// ``EndpointCore/TransportFailure`` of kind ``EndpointCore/TransportFailure/Kind/tls`` whose
    /// description names pinning. The certificate is still verified as well.
    public var pinnedPublicKeys: [PublicKeyPin]

    /// Creates TLS settings.
    ///
    /// - Parameters:
    ///   - caBundlePath: a PEM file of trusted authorities, or `nil` for the system's.
    ///   - requiresTLS13: whether only TLS 1.3 is accepted; `false` for TLS 1.2 and 1.3.
    ///   - clientCertificate: the certificate and key presented for mutual TLS, or `nil`.
    ///   - pinnedPublicKeys: the public keys a server may present; empty for any.
    public init(
      caBundlePath: String? = nil,
      requiresTLS13: Bool = false,
      clientCertificate: ClientCertificate? = nil,
      pinnedPublicKeys: [PublicKeyPin] = []
    ) {
      self.caBundlePath = caBundlePath
      self.requiresTLS13 = requiresTLS13
      self.clientCertificate = clientCertificate
      self.pinnedPublicKeys = pinnedPublicKeys
    }
  }
}
