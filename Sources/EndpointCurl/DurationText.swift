import EndpointPrimitives

extension Duration {
  /// Whole milliseconds, rounded up, for `epoll_wait`; at most `Int32.max`.
  var millisecondsRoundedUp: Int32 {
    let nanoseconds = self.nanoseconds
    return Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
  }
}
