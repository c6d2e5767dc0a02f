#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Parses the three HTTP date formats (RFC 9110 §5.6.7) by hand: FoundationEssentials has no
/// date formatter. Read by `Retry-After`, the cache's freshness rules and the URLSession
/// client's cookie jar.
package enum HTTPDate {
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]
  private static let shortDays: Set<Substring> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let longDays: Set<Substring> = [
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
  ]

  /// The date in `text`, or `nil` if it is not a valid HTTP date.
  ///
  /// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
  /// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`
  /// - asctime: `Sun Nov  6 08:49:37 1994`
  package static func parse(_ text: String) -> Date? {
    let words = text.split(separator: " ")
    switch words.count {
    case 6:
      // IMF-fixdate.
      guard words[0].hasSuffix(","), shortDays.contains(words[0].dropLast()), words[5] == "GMT",
        words[1].count == 2, words[3].count == 4
      else { return nil }
      return date(day: words[1], month: words[2], year: words[3], time: words[4])
    case 4:
      // RFC 850, two-digit year.
      let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
      guard words[0].hasSuffix(","), longDays.contains(words[0].dropLast()), words[3] == "GMT",
        parts.count == 3, parts[0].count == 2, parts[2].count == 2, let short = Int(parts[2])
      else { return nil }
      // RFC 9110 reads a year more than 50 years ahead as the past century; 1970 is the pivot.
      let year = short < 70 ? 2000 + short : 1900 + short
      return date(day: parts[0], month: parts[1], year: "\(year)", time: words[2])
    case 5:
      // asctime, day padded with a space (the split drops it).
      guard shortDays.contains(words[0]), (1...2).contains(words[2].count), words[4].count == 4
      else { return nil }
      return date(day: words[2], month: words[1], year: words[4], time: words[3])
    default:
      return nil
    }
  }

  /// The date of a cookie's `Expires` attribute: an HTTP date, or the form cookies often use
  /// (`Sun, 06-Nov-1994 08:49:37 GMT`, RFC 6265's examples).
  package static func parseCookieDate(_ text: String) -> Date? {
    if let date = parse(text) { return date }
    let words = text.split(separator: " ")
    guard words.count == 4 else { return nil }
    let parts = words[1].split(separator: "-", omittingEmptySubsequences: false)
    guard words[0].hasSuffix(","), shortDays.contains(words[0].dropLast()), words[3] == "GMT",
      parts.count == 3, parts[0].count == 2, parts[2].count == 4
    else { return nil }
    return date(day: parts[0], month: parts[1], year: parts[2], time: words[2])
  }

  private static func date(
    day dayText: Substring,
    month monthText: Substring,
    year yearText: Substring,
    time: Substring
  ) -> Date? {
    let clock = time.split(separator: ":", omittingEmptySubsequences: false)
    guard let monthIndex = months.firstIndex(where: { $0 == monthText }),
      let day = number(dayText), let year = number(yearText),
      clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
      let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
      hour < 24, minute < 60, second <= 60,
      day >= 1, day <= daysIn(month: monthIndex + 1, year: year)
    else { return nil }
    let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Date(timeIntervalSince1970: Double(seconds))
  }

  private static func number(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(text)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
  /// `days_from_civil`).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
