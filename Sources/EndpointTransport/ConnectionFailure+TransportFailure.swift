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
