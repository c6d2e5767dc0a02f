import Foundation
import Synchronization
import Testing

@testable import EndpointCurl

/// Decodes a JSON object for assertions.
func jsonObject(_ data: Data) throws -> [String: Any] {
  let object = try JSONSerialization.jsonObject(with: data)
  return try #require(object as? [String: Any], "not a JSON object: \(BodyPreview.text(of: data))")
}

/// The body of an httpbin or fault-server answer as a JSON object.
func sendForJSON(
  _ client: some HTTPClient,
  _ request: HTTPRequest
) async throws -> (HTTPResponse, [String: Any]) {
  let (response, body) = try await client.send(request)
  let data = try await body.collect(upTo: 1 << 25)
  return (response, try jsonObject(data))
}

/// The header fields the fault server's `/echo` saw on the wire, lowercased names.
func echoedHeaders(_ echo: [String: Any]) throws -> [(String, String)] {
  let pairs = try #require(echo["headers"] as? [[String]])
  return pairs.map { ($0[0].lowercased(), $0[1]) }
}

/// The body the fault server's `/echo` saw on the wire.
func echoedBody(_ echo: [String: Any]) throws -> Data {
  let text = try #require(echo["body_base64"] as? String)
  return try #require(Data(base64Encoded: text))
}

/// Collects values handed to a `@Sendable` callback from another thread.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func append(_ value: Value) { storage.withVisibleLock(for: self) { $0.append(value) } }
  var values: [Value] { storage.withVisibleLock(for: self) { $0 } }
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
