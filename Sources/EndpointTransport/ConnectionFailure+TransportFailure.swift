import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ConnectionFailure: TransportFailure {
  /// `true` for a refused, reset or lost connection, a failed name lookup, no network or a
  /// timeout: sending again may succeed. `false` for a bad URL, a TLS failure or anything else.
  public var isTransient: Bool {
    switch code {
    case .cannotConnectToHost, .networkConnectionLost, .timedOut, .cannotFindHost,
      .dnsLookupFailed, .notConnectedToInternet:
      true
    default:
      false
    }
  }
}

extension IdleTimeout: TransportFailure {
  /// Always `true`: the server went quiet, and a new attempt may find it answering.
  public var isTransient: Bool { true }
}

extension DeadlineExceeded: TransportFailure {
  /// Always `true`: each attempt gets its own deadline.
  public var isTransient: Bool { true }
}
