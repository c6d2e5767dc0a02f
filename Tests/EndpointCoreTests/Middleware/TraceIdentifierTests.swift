import Testing

@testable import EndpointCore

/// `TraceContext.randomHex`: "never all zero" (W3C Trace Context makes an all-zero trace or
/// span id invalid).
@Suite struct TraceIdentifierTests {
  /// Gives zeros for its first `zeros` draws, then ones.
  struct ZerosFirst: RandomNumberGenerator {
    var zeros: Int

    mutating func next() -> UInt64 {
      if zeros > 0 {
        zeros -= 1
        return 0
      }
      return 0x0101_0101_0101_0101
    }
  }

  @Test func anIdentifierIsNeverAllZeroEvenWhenTheGeneratorGivesZeros() {
    var generator = ZerosFirst(zeros: 16)
    let id = TraceContext.randomHex(bytes: 8, using: &generator)
    #expect(id.count == 16)
    #expect(id != String(repeating: "0", count: 16))
    #expect(id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
  }
}
