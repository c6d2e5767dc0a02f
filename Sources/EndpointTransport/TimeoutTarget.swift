/// Work with time limits, watched by a ``TimeoutScheduler``.
protocol TimeoutTarget: AnyObject, Sendable {
  /// Checks the limits at `now`.
  ///
  /// - Returns: when to check again, or `nil` when the work has ended (a limit passed and
  ///   stopped it, or it ended before).
  func checkTimeouts(at now: ContinuousClock.Instant) -> ContinuousClock.Instant?
}
