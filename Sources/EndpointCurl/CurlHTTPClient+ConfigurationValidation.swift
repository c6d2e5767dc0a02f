import EndpointKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient.Configuration {
  /// The longest Unix socket path the kernel takes (`sun_path` holds 108 bytes with its NUL).
  static let unixSocketPathLimit = 107

  /// Throws the first server-side setting no request could work with.
  func validateServerOptions() throws(InvalidRequest) {
    if let connectTimeout, connectTimeout < .milliseconds(1) {
      throw .invalidConfiguration(
        "connectTimeout",
        reason: "\(connectTimeout) is below one millisecond; use nil for libcurl's default"
      )
    }
    if let path = unixSocketPath {
      if path.isEmpty {
        throw .invalidConfiguration("unixSocketPath", reason: "the path is empty")
      }
      if path.utf8.count > Self.unixSocketPathLimit {
        throw .invalidConfiguration(
          "unixSocketPath",
          reason: "the path is \(path.utf8.count) bytes long; a socket path holds at most "
            + "\(Self.unixSocketPathLimit)"
        )
      }
    }
    if let certificate = tls.clientCertificate {
      for path in [certificate.certificatePath, certificate.privateKeyPath] {
        guard FileManager.default.isReadableFile(atPath: path) else {
          throw .invalidConfiguration("tls.clientCertificate", reason: "cannot read \(path)")
        }
      }
    }
  }
}
