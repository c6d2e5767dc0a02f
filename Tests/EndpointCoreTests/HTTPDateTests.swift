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
}
