/// An error a transport throws when an exchange failed on the way, before a response head
/// arrived: the connection was refused, reset or lost, the host was not found, or it timed out.
///
/// ``RetryMiddleware`` cannot see a transport's own error types (the core imports no transport),
/// so transports make their errors conform to this protocol and say which failures are worth
/// another attempt. ``RetryPolicy/isTransientFailure(_:)``, the default error rule of
/// ``RetryPolicy``, retries exactly the errors whose ``isTransient`` is `true`.
///
/// ```swift
/// // In a transport module:
/// extension MyTransportError: TransportFailure {
///   var isTransient: Bool {
///     switch code {
///     case .connectionRefused, .connectionLost, .dnsFailure, .timedOut: true
///     case .badURL, .tlsFailure, .cancelled: false
///     }
///   }
/// }
/// ```
///
/// A cancelled exchange must throw `CancellationError` (or report `isTransient == false`): it is
/// never retried.
public protocol TransportFailure: Error {
  /// Whether sending the same request again may succeed: `true` for a refused, reset or lost
  /// connection, a failed name lookup or a timeout; `false` for an invalid URL, a TLS failure or
  /// a cancelled exchange.
  var isTransient: Bool { get }
}
