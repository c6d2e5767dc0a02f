import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `CacheStore`: "Errors a store throws are treated the same way [as a miss], so a full disk or
/// an unreadable entry never fails a request."
@Suite struct CacheStoreFailureTests {
  /// A store whose every operation fails, as a full or unreadable disk would.
  struct BrokenStore: CacheStore {
    struct Broken: Error {}

    func entries(for key: String) async throws -> [CachedResponse] { throw Broken() }
    func setEntries(_ entries: [CachedResponse], for key: String) async throws { throw Broken() }
    func removeEntries(for key: String) async throws { throw Broken() }
    func removeAll() async throws { throw Broken() }
  }

  @Test func aStoreThatThrowsNeverFailsARequest() async throws {
    let harness = CacheHarness(store: BrokenStore()) { _, index, _ in
      reply(200, headers: [("Cache-Control", "max-age=600")], body: "v\(index)")
    }
    let first = try await harness.get()
    #expect(first.0 == .miss && first.1 == "v0")
    // Nothing could be stored, so the next request goes to the server again.
    let second = try await harness.get()
    #expect(second.0 == .miss && second.1 == "v1")
    // A successful unsafe method invalidates, which fails in the store too.
    let (posted, body) = try await harness.send(.post)
    #expect(posted.status == 200 && body == "v2")
    #expect(harness.origin.requests.count == 3)
  }
}
