import EndpointPrimitives
import Testing

@testable import EndpointCore

/// The RFC 9110 `tchar` rule that method names, field names and the curl client's head parser
/// share.
@Suite struct HTTPTokenTests {
  /// RFC 9110 §5.6.2, written out: `!#$%&'*+-.^_`|~`, digits and letters.
  private let tchar = Set(
    "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

  @Test func exactlyTheTcharBytesAreTokenBytes() {
    for byte in UInt8.min...UInt8.max {
      #expect(HTTPToken.isTokenByte(byte) == tchar.contains(byte), "byte \(byte)")
    }
  }

  @Test func aTokenIsNonEmptyAndMadeOfTcharOnly() {
    #expect(HTTPToken.isValid("X-Request-Id"))
    #expect(HTTPToken.isValid("!#$%&'*+-.^_`|~"))
    #expect(!HTTPToken.isValid(""))
    #expect(!HTTPToken.isValid("X Request"))
    #expect(!HTTPToken.isValid("X:Y"))
    #expect(!HTTPToken.isValid("Ä"))
  }
}
