import EndpointPrimitives
import Foundation
import Synchronization
import Testing

@testable import EndpointCurl

/// Collects values handed to a `@Sendable` callback from another thread.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func append(_ value: Value) { storage.withVisibleLock { $0.append(value) } }
  var values: [Value] { storage.withVisibleLock { $0 } }
}

extension CurlHTTPClient {
  /// Easy handles taken from the pool and not yet given back.
  var easyHandlesInUse: Int { liveEasyHandles - pooledEasyHandles }

  /// Waits (up to `limit`) until every easy handle is back in the pool; returns whether they
  /// all came back.
  func waitForIdleHandles(within limit: Duration = .seconds(5)) async throws -> Bool {
    let start = ContinuousClock.now
    while easyHandlesInUse != 0 {
      if ContinuousClock.now - start > limit { return false }
      try await Task.sleep(for: .milliseconds(10))
    }
    return true
  }
}
