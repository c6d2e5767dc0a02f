import EndpointPrimitives
import Foundation
import Testing

@testable import EndpointCore

/// The one HTTP-date parser: `Retry-After`, cache freshness and the URLSession client's cookie jar.
@Suite struct HTTPDateTests {
  /// Sun, 06 Nov 1994 08:49:37 GMT.
  private static let example = Date(timeIntervalSince1970: 784_111_777)

  @Test func aCookieDateIsEveryHTTPDateAndTheDashedFormCookiesUse() {
    for text in [
      "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
      "Sun, 06-Nov-1994 08:49:37 GMT",
    ] {
      #expect(HTTPDate.parseCookieDate(text) == Self.example, "\(text)")
    }
    #expect(
      HTTPDate.parseCookieDate("Thu, 01-Jan-1970 00:00:01 GMT") == Date(timeIntervalSince1970: 1))
  }

  @Test func theDashedCookieFormIsNoHTTPDate() {
    #expect(HTTPDate.parse("Sun, 06-Nov-1994 08:49:37 GMT") == nil)
  }

  @Test func malformedCookieDatesAreRefused() {
    for text in [
      "", "Sun, 06-Nov-1994 08:49:37", "Sun, 06-Nov-1994 08:49:37 PST",
      "Sun 06-Nov-1994 08:49:37 GMT",
      "Sun, 6-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT",
      "Sun, 06-Foo-1994 08:49:37 GMT",
      "Sun, 31-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-1994 25:49:37 GMT",
    ] {
      #expect(HTTPDate.parseCookieDate(text) == nil, "\(text)")
    }
  }

  @Test func anHTTPDateIsReadOnlyWithItsExactSpacing() {
    for text in [
      "Sun, 06  Nov 1994 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994  08:49:37 GMT", " Sun, 06 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37 GMT ", "Sunday,  06-Nov-94 08:49:37 GMT",
      "Sun Nov 6 08:49:37 1994", "Sun Nov   6 08:49:37 1994", "Sun  Nov  6 08:49:37 1994",
      "Sun Nov  16 08:49:37 1994", "Sun,\t06 Nov 1994 08:49:37 GMT",
    ] {
      #expect(HTTPDate.parse(text) == nil, "\(text)")
    }
    #expect(HTTPDate.parse("Sun Nov 06 08:49:37 1994") == Self.example)
    #expect(
      HTTPDate.parse("Wed Nov 16 08:49:37 1994")
        == Self.example.addingTimeInterval(10 * 86_400))
  }

  /// RFC 9110 §5.6.7: `HTTP-date` is case-sensitive, so an `Expires` in the wrong case is no
  /// date, and means "already expired".
  @Test func anHTTPDateInTheWrongLetterCaseIsNoDate() {
    for text in [
      "sun, 06 nov 1994 08:49:37 gmt", "Sun, 06 NOV 1994 08:49:37 GMT",
      "SUN, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 gmt",
      "sunday, 06-Nov-94 08:49:37 GMT", "Sun nov  6 08:49:37 1994",
    ] {
      #expect(HTTPDate.parse(text) == nil, "\(text)")
    }
  }

  /// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the most recent past year
  /// with those digits.
  @Test func aTwoDigitYearIsReadWithinFiftyYearsOfNow() throws {
    let now = Date()
    let thisYear = 1970 + Int(now.timeIntervalSince1970) / 31_556_952
    for ahead in [0, 10, 49] {
      let year = thisYear + ahead
      let text = "Thursday, 01-Jan-\(String(format: "%02d", year % 100)) 00:00:00 GMT"
      let date = try #require(HTTPDate.parse(text))
      let seconds = date.timeIntervalSince1970
      #expect(seconds > Double(year - 1970) * 31_536_000, "\(text)")
      #expect(seconds < Double(year - 1969) * 31_622_400, "\(text)")
    }
    let past = try #require(
      HTTPDate.parse(
        "Thursday, 01-Jan-\(String(format: "%02d", (thisYear + 60) % 100)) 00:00:00 GMT"))
    #expect(past < now)
  }

  @Test func aCookieDateMayStillHaveDoubledSpaces() {
    #expect(HTTPDate.parseCookieDate("Sun, 06  Nov 1994 08:49:37 GMT") == Self.example)
  }
}
