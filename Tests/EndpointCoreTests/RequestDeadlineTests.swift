import EndpointCore
import EndpointPrimitives
import Testing

/// `withRequestDeadline`'s scope as the transports read it (`deadlineWithinScope`); the wire
/// behaviour is in the transport tests' error matrix.
@Suite struct RequestDeadlineTests {
  @Test func outsideAScopeARequestKeepsItsOwnDeadline() {
    #expect(deadlineWithinScope(nil) == nil)
    #expect(deadlineWithinScope(.seconds(5)) == .seconds(5))
  }

  @Test func insideAScopeTheEarlierDeadlineWins() async {
    await withRequestDeadline(after: .seconds(100)) {
      let unlimited = deadlineWithinScope(nil)
      #expect(unlimited != nil)
      #expect((unlimited ?? .zero) <= .seconds(100))
      #expect((unlimited ?? .zero) > .seconds(90))
      #expect(deadlineWithinScope(.seconds(5)) == .seconds(5))
      #expect((deadlineWithinScope(.seconds(500)) ?? .zero) <= .seconds(100))
    }
  }

  @Test func nestedScopesKeepTheEarliestEnd() async {
    await withRequestDeadline(after: .seconds(100)) {
      await withRequestDeadline(after: .seconds(1000)) {
        #expect((deadlineWithinScope(nil) ?? .zero) <= .seconds(100))
      }
      await withRequestDeadline(after: .seconds(10)) {
        #expect((deadlineWithinScope(nil) ?? .zero) <= .seconds(10))
      }
    }
  }

  @Test func aScopeThatHasEndedLeavesANanosecond() async {
    await withRequestDeadline(after: .zero) {
      #expect(deadlineWithinScope(nil) == .nanoseconds(1))
      #expect(deadlineWithinScope(.seconds(5)) == .nanoseconds(1))
    }
  }

  @Test func theScopeEndsWithItsOperation() async throws {
    let value = try await withRequestDeadline(after: .seconds(1)) { () async throws -> Int in 42 }
    #expect(value == 42)
    #expect(deadlineWithinScope(nil) == nil)
  }
}
