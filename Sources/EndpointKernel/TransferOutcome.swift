import EndpointCore

/// How a transfer settled, on both transports: its body ended, or it failed with an error (the
/// caller's cancellation, a timeout, the connection).
package enum TransferOutcome {
  case finished
  case failed(any Error)
}
