import EndpointPrimitives
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct RetryAfterTests {
  /// Sun, 06 Nov 1994 08:49:37 GMT, the example of RFC 9110.
  static let example = Date(timeIntervalSince1970: 784_111_777)

  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT",
    "Sunday, 06-Nov-94 08:49:37 GMT",
    "Sun Nov  6 08:49:37 1994",
  ])
  func everyHTTPDateFormatIsRead(text: String) {
    #expect(HTTPDate.parse(text) == Self.example)
  }

  @Test func leapDayAndCenturyRulesAreApplied() {
    #expect(
      HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
    #expect(
      HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
    #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    #expect(
      HTTPDate.parse("Thursday, 01-Jan-30 00:00:00 GMT")
        == Date(timeIntervalSince1970: 1_893_456_000))
  }

  @Test(arguments: [
    "", "tomorrow", "-5", "1.5", "0x10",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "Mon, 29 Feb 2100 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:60:37 GMT",
    "Sun, 06 Nov 1994 08:49:37 PST",
    "Sun, 6 Nov 1994 08:49:37 GMT",
    "Sun 06 Nov 1994 08:49:37 GMT",
    "Sun, 06 Foo 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 8:49:37 GMT",
    "Sun, 06 Nov 1994 08:49 GMT",
    "Funday, 06-Nov-94 08:49:37 GMT",
    "Sun Nov  6 08:49:37 94",
  ])
  func invalidValueIsNotADelay(text: String) {
    #expect(RetryAfter.delay(text, now: Self.example) == nil)
  }

  @Test func secondsAreReadWithSurroundingSpaces() {
    #expect(RetryAfter.delay(" 120 ", now: Self.example) == .seconds(120))
    #expect(RetryAfter.delay("0", now: Self.example) == .zero)
  }

  @Test func hugeSecondsDoNotOverflow() {
    #expect(RetryAfter.delay("99999999999999999999999", now: Self.example) == .seconds(Int64.max))
  }
}
