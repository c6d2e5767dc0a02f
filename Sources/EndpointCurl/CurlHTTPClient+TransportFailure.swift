extension CurlHTTPClient.ConnectionFailure: TransportFailure {
  /// `true` for a refused, reset or lost connection, a failed name lookup or a timeout: sending
  /// again may succeed. `false` for TLS failures, invalid responses and anything else.
  public var isTransient: Bool {
    switch kind {
    case .cannotConnect, .hostNotFound, .connectionLost, .timedOut: true
    case .invalidResponse, .tls, .proxy, .other: false
    }
  }
}
