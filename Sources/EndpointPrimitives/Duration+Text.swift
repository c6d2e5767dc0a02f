extension Duration {
  /// Whole nanoseconds, rounded down; negative durations give 0.
  package var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let total = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if total.overflow { return seconds < 0 ? 0 : .max }
    return max(0, total.partialValue + attoseconds / 1_000_000_000)
  }

  /// A short human reading such as `0.3 s` or `1.25 s`, to the millisecond.
  package var shortDescription: String {
    let milliseconds = nanoseconds / 1_000_000
    let whole = milliseconds / 1000
    var fraction = String(milliseconds % 1000)
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return fraction.isEmpty ? "\(whole) s" : "\(whole).\(fraction) s"
  }

  /// `12.3 ms`, to a tenth of a millisecond.
  package var millisecondsDescription: String {
    let tenths = nanoseconds / 100_000
    return "\(tenths / 10).\(tenths % 10) ms"
  }
}
