import EndpointCore
import EndpointKernel
import Testing

/// The strict `Content-Length` parser the transports share (RFC 9110, section 8.6).
@Suite struct ContentLengthTests {
  @Test func digitsAreALength() {
    #expect(ContentLength.parse("0") == 0)
    #expect(ContentLength.parse("300") == 300)
    #expect(ContentLength.parse("007") == 7)
    #expect(ContentLength.parse(" 42\t") == 42)
    #expect(ContentLength.parse("9223372036854775807") == Int64.max)
  }

  @Test func aDigitLimitRefusesLongerNumbers() {
    #expect(ContentLength.parse("123456789012345678", maximumDigits: 18) == 123_456_789_012_345_678)
    #expect(ContentLength.parse("1234567890123456789", maximumDigits: 18) == nil)
    #expect(ContentLength.parse("0000000000000000005", maximumDigits: 18) == nil)
    #expect(ContentLength.parse("5, 5", maximumDigits: 1) == 5)
    #expect(ContentLength.parse("5, 50", maximumDigits: 1) == nil)
    #expect(ContentLength.parse("9223372036854775807", maximumDigits: 19) == Int64.max)
  }

  @Test func aListOfOneValueRepeatedIsThatValue() {
    #expect(ContentLength.parse("5, 5") == 5)
    #expect(ContentLength.parse("5,5 ,5") == 5)
    #expect(ContentLength.parse(fields: ["12", "12"]) == 12)
    #expect(ContentLength.parse(fields: ["12, 12", "12"]) == 12)
  }

  @Test(arguments: [
    "0x5", "+5", "-5", "1 0", "5, 10", "9223372036854775808", "18446744073709551616",
    "99999999999999999999999", "", " ", ",", "5,", ",5", "5,,5", "5;", "five", "\u{0665}",
    "5\r\n", "1e3", "5.0",
  ])
  func anythingElseIsNoLength(value: String) {
    #expect(ContentLength.parse(value) == nil)
  }

  @Test func differentRepeatedFieldsAreNoLength() {
    #expect(ContentLength.parse(fields: ["5", "10"]) == nil)
    #expect(ContentLength.parse(fields: ["5", "x"]) == nil)
    #expect(ContentLength.parse(fields: [String]()) == nil)
  }
}
