import EndpointCore
import EndpointPrimitives
import EndpointTransport
import Foundation
import Synchronization
import Testing

/// Collects values handed to a `@Sendable` callback from another thread.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func append(_ value: Value) { storage.withVisibleLock { $0.append(value) } }
  var values: [Value] { storage.withVisibleLock { $0 } }
}

/// Runs `operation` and returns how long it took (for checking that a timeout fired when it
/// should, not for measuring speed).
func elapsed<T>(_ operation: () async throws -> T) async -> (Result<T, any Error>, Duration) {
  let start = ContinuousClock.now
  do {
    let value = try await operation()
    return (.success(value), ContinuousClock.now - start)
  } catch {
    return (.failure(error), ContinuousClock.now - start)
  }
}

/// Files in `directory`, for checking nothing is left behind.
func files(in directory: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}
