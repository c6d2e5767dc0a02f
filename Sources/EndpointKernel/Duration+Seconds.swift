import EndpointCore

extension Duration {
  /// Seconds as a `Double`, for Foundation's `TimeInterval`.
  package var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
