extension HTTPBody {
  /// The most bytes of an unwanted response body read before it is dropped.
  static let discardLimit = 64 * 1024

  /// Reads and drops a response body that will not be used (a `401` or `503` about to be
  /// retried), so the transport can finish the exchange and reuse its connection.
  ///
  /// Reading stops after ``discardLimit`` bytes; errors are ignored since the body is unwanted.
  func discard() async {
    if data != nil || fileURL != nil { return }
    var read = 0
    do {
      for try await chunk in self {
        read += chunk.count
        if read >= Self.discardLimit { return }
      }
    } catch {
      return
    }
  }
}
