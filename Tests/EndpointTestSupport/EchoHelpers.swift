import EndpointCore
import Foundation
import Testing

/// Decodes a JSON object for assertions.
public func jsonObject(_ data: Data) throws -> [String: Any] {
  let object = try JSONSerialization.jsonObject(with: data)
  return try #require(
    object as? [String: Any], "not a JSON object: \(Redaction.none.preview(of: data))")
}

/// The body of an httpbin or fault-server answer as a JSON object.
public func sendForJSON(
  _ client: some HTTPClient,
  _ request: HTTPRequest
) async throws -> (HTTPResponse, [String: Any]) {
  let (response, body) = try await client.send(request)
  let data = try await body.collect(upTo: 1 << 25)
  return (response, try jsonObject(data))
}

/// The header fields the fault server's `/echo` saw on the wire, lowercased names.
public func echoedHeaders(_ echo: [String: Any]) throws -> [(String, String)] {
  let pairs = try #require(echo["headers"] as? [[String]])
  return pairs.map { ($0[0].lowercased(), $0[1]) }
}

/// The body the fault server's `/echo` saw on the wire.
public func echoedBody(_ echo: [String: Any]) throws -> Data {
  let text = try #require(echo["body_base64"] as? String)
  return try #require(Data(base64Encoded: text))
}
