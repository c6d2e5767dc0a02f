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
  ///
  /// Only these three forms are read, with their exact spacing (one space between words, two
  /// before an asctime day of one digit) and their exact letter case: RFC 9110 §5.6.7 makes
  /// `HTTP-date` case-sensitive, so `thu, 01 jan 2050 00:00:00 gmt` is no date (an `Expires`
  /// holding it means "already expired").
  package static func parse(_ text: String) -> Date? {
    parse(text, strict: true)
  }

  private static func parse(_ text: String, strict: Bool) -> Date? {
    if strict, text.utf8.contains(where: { $0 != 0x20 && !(0x21...0x7E).contains($0) }) {
      return nil
    }
    var words = text.split(separator: " ", omittingEmptySubsequences: !strict)
    // asctime pads a day of one digit with a space: `Nov  6`.
    if strict, words.count == 6, words[2].isEmpty, words[3].count == 1 {
      words.remove(at: 2)
    } else if strict, words.count == 5, words[2].count == 1 {
      return nil
    }
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
        parts.count == 3, parts[0].count == 2, parts[2].count == 2, let short = number(parts[2])
      else { return nil }
      let year = fullYear(short)
      return date(day: parts[0], month: parts[1], year: "\(year)", time: words[2])
    case 5:
      // asctime.
      guard shortDays.contains(words[0]), (1...2).contains(words[2].count), words[4].count == 4
      else { return nil }
      return date(day: words[2], month: words[1], year: words[4], time: words[3])
    default:
      return nil
    }
  }

  /// The year of an RFC 850 date's two digits: RFC 9110 §5.6.7 reads a year that would be
  /// more than 50 years in the future as the most recent past year with the same two digits.
  private static func fullYear(_ short: Int) -> Int {
    let seconds = Int(Date().timeIntervalSince1970)
    // Days to years, near enough for a pivot 50 years away.
    let current = 1970 + seconds / 31_556_952
    var year = current - current % 100 + short
    if year > current + 50 { year -= 100 }
    if year <= current - 50 { year += 100 }
    return year
  }

  /// The date of a cookie's `Expires` attribute: an HTTP date, or the form cookies often use
  /// (`Sun, 06-Nov-1994 08:49:37 GMT`, RFC 6265's examples).
  /// Cookies are read leniently (RFC 6265 §5.1.1): spaces may be doubled.
  package static func parseCookieDate(_ text: String) -> Date? {
    if let date = parse(text, strict: false) { return date }
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
