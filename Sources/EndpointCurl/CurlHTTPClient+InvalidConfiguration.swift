#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient {
  /// A setting of ``Configuration`` that no request could work with, found when the client is
  /// made: a connect timeout that is not positive, a Unix socket path that is empty or too long,
  /// a client certificate or key file that cannot be read.
  ///
  /// ```swift
  /// catch let error as CurlHTTPClient.InvalidConfiguration {
  ///   // invalid configuration: tls.clientCertificate: cannot read /etc/…
  ///   print(error)
  /// }
  /// ```
  public struct InvalidConfiguration: Error, Hashable, Sendable, CustomStringConvertible {
    /// The setting, such as `connectTimeout` or `tls.clientCertificate`.
    public let setting: String
    /// What is wrong with it (never a password).
    public let reason: String

    /// Creates the error.
    public init(setting: String, reason: String) {
      self.setting = setting
      self.reason = reason
    }

    /// A sentence naming the setting and the reason.
    public var description: String { "invalid configuration: \(setting): \(reason)" }
  }
}

extension CurlHTTPClient.Configuration {
  /// The longest Unix socket path the kernel takes (`sun_path` holds 108 bytes with its NUL).
  static let unixSocketPathLimit = 107

  /// Throws the first server-side setting no request could work with.
  func validateServerOptions() throws(CurlHTTPClient.InvalidConfiguration) {
    if let connectTimeout, connectTimeout < .milliseconds(1) {
      throw .init(
        setting: "connectTimeout",
        reason: "\(connectTimeout) is below one millisecond; use nil for libcurl's default"
      )
    }
    if let path = unixSocketPath {
      if path.isEmpty {
        throw .init(setting: "unixSocketPath", reason: "the path is empty")
      }
      if path.utf8.count > Self.unixSocketPathLimit {
        throw .init(
          setting: "unixSocketPath",
          reason: "the path is \(path.utf8.count) bytes long; a socket path holds at most "
            + "\(Self.unixSocketPathLimit)"
        )
      }
    }
    if let certificate = tls.clientCertificate {
      for path in [certificate.certificatePath, certificate.privateKeyPath] {
        guard FileManager.default.isReadableFile(atPath: path) else {
          throw .init(setting: "tls.clientCertificate", reason: "cannot read \(path)")
        }
      }
    }
  }
}
