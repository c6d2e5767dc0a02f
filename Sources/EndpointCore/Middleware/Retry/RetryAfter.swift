import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the `Retry-After` field (RFC 9110 §10.2.3): delay seconds or an HTTP date.
enum RetryAfter {
  /// The wait `value` asks for, measured from `now`; `nil` when it is neither form.
  ///
  /// A date in the past means no wait.
  static func delay(_ value: String, now: Date) -> Duration? {
    let text = value.trimmed(" \t")
    if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
      // Any number of digits is valid; an enormous one is capped by the policy later.
      return .seconds(Int64(text) ?? Int64.max)
    }
    guard let date = HTTPDate.parse(String(text)) else { return nil }
    let seconds = date.timeIntervalSince(now)
    return seconds > 0 ? .seconds(seconds) : .zero
  }
}
