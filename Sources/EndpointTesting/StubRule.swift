import EndpointPrimitives

/// A registered stub rule: set how often it answers, and ask how often it did.
///
/// Returned by the `reply` methods of ``StubRuleBuilder``; every method returns the same rule,
/// so they chain.
///
/// ```swift
/// let create = stub.on(.post, "/todos").reply(status: 201).times(2)
/// // … code under test …
/// #expect(create.matchCount == 2)
/// ```
public struct StubRule: Sendable, CustomStringConvertible {
  let store: StubStore
  /// The rule's number, as shown in messages (`#1` is the first rule added).
  public let id: Int

  /// Answers once, then is used up.
  @discardableResult
  public func once() -> StubRule {
    times(1)
  }

  /// Answers `count` times, then is used up; ``StubClient/verify()`` expects exactly `count`.
  ///
  /// A count below 1 makes the stub throw ``TestDoubleFailure/Kind/invalidStub``.
  @discardableResult
  public func times(_ count: Int) -> StubRule {
    store.update(id) { rule in
      guard count >= 1 else {
        return "times(\(count)): a rule must answer at least once"
      }
      rule.limit = count
      return nil
    }
    return self
  }

  /// Answers every time it matches; after a sequence of responses, repeats the last one.
  @discardableResult
  public func always() -> StubRule {
    store.update(id) { rule in
      rule.limit = nil
      return nil
    }
    return self
  }

  /// Lets ``StubClient/verify()`` pass when the rule answered fewer times than it could (even
  /// never).
  @discardableResult
  public func optional() -> StubRule {
    store.update(id) { rule in
      rule.isOptional = true
      return nil
    }
    return self
  }

  /// Waits `delay` on the stub client's clock before each answer (a response's own delay wins).
  @discardableResult
  public func delayed(by delay: Duration) -> StubRule {
    store.update(id) { rule in
      rule.delay = delay
      return nil
    }
    return self
  }

  /// How many requests this rule has answered (or is answering).
  public var matchCount: Int {
    store.rule(id)?.uses ?? 0
  }

  /// The requests this rule answered, in order.
  public var requests: [RecordedRequest] {
    store.state.withVisibleLock { $0.records.filter { $0.rule == id } }
  }

  /// `#n METHOD pattern …`.
  public var description: String {
    store.rule(id)?.label ?? "#\(id)"
  }
}
