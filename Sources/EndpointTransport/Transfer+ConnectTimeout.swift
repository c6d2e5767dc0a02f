import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The best-effort connect timeout of the URLSession client: URLSession reports nothing of the
/// connection phase, so the first sign that the request reached a server ends the wait: a byte
/// of its body reported sent, the response head, or a redirect.
extension Transfer {
  /// How long the transfer may still wait for a sign of its connection (zero or less when the
  /// connect timeout passed); `nil` when there is no connect timeout or the sign came.
  func connectWait(state: State, elapsed: Duration) -> Duration? {
    guard let limit = options.connectTimeout, !state.showedConnection else { return nil }
    return limit - elapsed
  }
}

extension Transfer.State {
  /// Whether the request is known to have reached a server.
  var showedConnection: Bool {
    response != nil || hopBytesSent > 0 || bytesSentBefore > 0 || chain.count > 1
  }
}
