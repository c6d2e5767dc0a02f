// libFuzzer target: Retry-After values and HTTP dates (RetryAfter, HTTPDate).
//
// Input: eight bytes for an instant, then a Retry-After value. Invariants: a delay is never
// negative; an instant between 1970 and 9999 printed in each of the three HTTP date forms
// parses back to that instant (RFC 850's two-digit year only within its window), and as a
// Retry-After value gives the distance from now.

import EndpointPrimitives

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

private let now = Date(timeIntervalSince1970: 1_700_000_000)

/// libFuzzer's entry point: checks one input against the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(start, count)
  var raw: UInt64 = 0
  for _ in 0..<8 { raw = raw << 8 | UInt64(input.byte()) }
  let value = String(decoding: input.rest(), as: UTF8.self)
  if let delay = RetryAfter.delay(value, now: now) {
    invariant(delay >= .zero, "a negative delay for \(String(reflecting: value))")
  }

  // 1970-01-01 ... 9999-12-31 23:59:59.
  let seconds = Int(raw % 253_402_300_800)
  let date = Date(timeIntervalSince1970: Double(seconds))
  let fields = civil(seconds)
  var forms = [imfFixdate(fields), asctime(fields)]
  // A two-digit year is read within 50 years of today (RFC 9110 §5.6.7), as the parser does.
  let current = 1970 + Int(Date().timeIntervalSince1970) / 31_556_952
  if (current - 49...current + 50).contains(fields.year) { forms.append(rfc850(fields)) }
  for form in forms {
    invariant(HTTPDate.parse(form) == date, "\(form) did not parse to \(seconds)")
    let expected = max(0, Double(seconds) - now.timeIntervalSince1970)
    invariant(RetryAfter.delay(form, now: now) == .seconds(expected), "delay for \(form)")
  }
  return 0
}

private struct Civil {
  var year, month, day, hour, minute, second, weekday: Int
}

/// Howard Hinnant's `civil_from_days`, written apart from the parser's own inverse.
private func civil(_ seconds: Int) -> Civil {
  let days = seconds / 86_400
  let rest = seconds % 86_400
  let z = days + 719_468
  let era = z / 146_097
  let dayOfEra = z - era * 146_097
  let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
  let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
  let mp = (5 * dayOfYear + 2) / 153
  let day = dayOfYear - (153 * mp + 2) / 5 + 1
  let month = mp < 10 ? mp + 3 : mp - 9
  let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  // 1970-01-01 was a Thursday (index 4 with Sunday as 0).
  return Civil(
    year: year, month: month, day: day, hour: rest / 3_600, minute: rest % 3_600 / 60,
    second: rest % 60, weekday: (days + 4) % 7)
}

private let dayNames = [
  "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
]
private let monthNames = [
  "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
]

private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

private func four(_ value: Int) -> String {
  String(repeating: "0", count: 4 - "\(value)".count) + "\(value)"
}

private func clock(_ c: Civil) -> String { "\(two(c.hour)):\(two(c.minute)):\(two(c.second))" }

private func imfFixdate(_ c: Civil) -> String {
  "\(dayNames[c.weekday].prefix(3)), \(two(c.day)) \(monthNames[c.month - 1]) \(four(c.year)) \(clock(c)) GMT"
}

private func rfc850(_ c: Civil) -> String {
  "\(dayNames[c.weekday]), \(two(c.day))-\(monthNames[c.month - 1])-\(two(c.year % 100)) \(clock(c)) GMT"
}

private func asctime(_ c: Civil) -> String {
  let day = c.day < 10 ? " \(c.day)" : "\(c.day)"
  return
    "\(dayNames[c.weekday].prefix(3)) \(monthNames[c.month - 1]) \(day) \(clock(c)) \(four(c.year))"
}
