extension CurlHTTPClient {
  /// The certificate and private key a client presents to servers that ask for one (mutual
  /// TLS), read from PEM files when each connection is made.
  ///
  /// The certificate file may hold the chain after the client's certificate. The key may be
  /// encrypted; its password is then given in ``privateKeyPassword``, which no description of
  /// this value shows.
  ///
  /// A file that cannot be read, a key that does not match the certificate or a wrong password
  /// fails the request with a ``EndpointCore/TransportFailure`` of kind
  /// ``EndpointCore/TransportFailure/Kind/tls``.
  public struct ClientCertificate: Sendable, Hashable, CustomStringConvertible {
    /// The PEM file of the client's certificate (and, after it, its chain).
    public var certificatePath: String
    /// The PEM file of the certificate's private key.
    public var privateKeyPath: String
    /// The password of an encrypted private key; `nil` for a key that is not encrypted.
    public var privateKeyPassword: String?

    /// Names the files of a client certificate.
    ///
    /// - Parameters:
    ///   - certificatePath: the PEM file of the certificate (and its chain).
    ///   - privateKeyPath: the PEM file of its private key.
    ///   - privateKeyPassword: the key's password when it is encrypted, else `nil`.
    public init(certificatePath: String, privateKeyPath: String, privateKeyPassword: String? = nil)
    {
      self.certificatePath = certificatePath
      self.privateKeyPath = privateKeyPath
      self.privateKeyPassword = privateKeyPassword
    }

    /// The two paths, and whether a password is set (never the password).
    public var description: String {
      let password = privateKeyPassword == nil ? "" : ", password <redacted>"
      return "client certificate \(certificatePath), key \(privateKeyPath)\(password)"
    }
  }
}

extension CurlHTTPClient.ClientCertificate: CustomReflectable {
  /// The paths, and the key's password hidden as ``description`` hides it, for `dump(_:)` and
  /// LLDB's `po`.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "certificatePath": certificatePath,
        "privateKeyPath": privateKeyPath,
        "privateKeyPassword": privateKeyPassword.map { _ in HTTPFields.redactedValue } as Any,
      ],
      displayStyle: .struct)
  }
}
