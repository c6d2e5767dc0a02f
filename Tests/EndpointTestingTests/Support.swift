import EndpointCore
import EndpointPrimitives
import EndpointTesting
import Foundation
import Synchronization
import Testing

struct User: Codable, Equatable, Sendable {
  var id: Int
  var name: String
}

let api = URL(string: "https://api.example.com/v1")!

/// A JSON parser built from the core alone, so these tests do not depend on EndpointJSON's
/// progress.
func jsonParser<Value: Decodable & Sendable>(_ type: Value.Type) -> ResponseParser<Value> {
  ResponseParser(accept: "application/json") { _, body in
    do {
      return try JSONDecoder().decode(Value.self, from: body)
    } catch {
      throw ParsingFailure(type: "\(Value.self)", reason: "\(error)", body: body)
    }
  }
}

func userEndpoint(id: Int) -> Endpoint<User> {
  Endpoint(.get, path: "users/\(id)", relativeTo: api, parser: jsonParser(User.self))
}

func request(
  _ method: HTTPMethod = .get,
  _ url: String,
  headers: [String: String] = [:],
  body: String? = nil
) throws -> HTTPRequest {
  HTTPRequest(
    method: method,
    url: try #require(URL(string: url)),
    headerFields: try HTTPFields(headers),
    body: body.map { HTTPBody($0) }
  )
}

/// Collects a whole body.
func text(_ body: HTTPBody) async throws -> String {
  String(decoding: try await body.collect(upTo: 1 << 20), as: UTF8.self)
}

struct Timeout: Error, Equatable {}

/// A client that fails every call, proving no network is used.
struct NoNetworkClient: HTTPClient {
  struct Used: Error, CustomStringConvertible {
    let request: String
    var description: String { "network used for \(request)" }
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    throw Used(request: request.description)
  }
}

/// A client that answers every request with a fixed response and counts calls.
struct FixedClient: HTTPClient {
  let status: Int
  let headers: [String: String]
  let body: String
  let calls = Calls()

  init(status: Int = 200, headers: [String: String] = [:], body: String = "") {
    self.status = status
    self.headers = headers
    self.body = body
  }

  final class Calls: Sendable {
    let count = Mutex(0)
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    calls.count.withVisibleLock { $0 += 1 }
    if let body = request.body { _ = try await body.collect(upTo: 1 << 20) }
    return (
      HTTPResponse(status: status, headerFields: try HTTPFields(headers), url: request.url),
      HTTPBody(body)
    )
  }
}

/// Expects `body` to throw a ``TestDoubleFailure`` of `kind`, and returns it.
@discardableResult
func expectFailure<Result>(
  _ kind: TestDoubleFailure.Kind,
  sourceLocation: SourceLocation = #_sourceLocation,
  performing body: () async throws -> Result
) async -> TestDoubleFailure? {
  let error = await #expect(throws: TestDoubleFailure.self, sourceLocation: sourceLocation) {
    try await body()
  }
  if let error {
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
  }
  return error
}

/// Expects `body` to throw a ``TestDoubleFailure`` of `kind`, and returns it.
@discardableResult
func expectFailure<Result>(
  _ kind: TestDoubleFailure.Kind,
  sourceLocation: SourceLocation = #_sourceLocation,
  performing body: () throws -> Result
) -> TestDoubleFailure? {
  let error = #expect(throws: TestDoubleFailure.self, sourceLocation: sourceLocation) {
    try body()
  }
  if let error {
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
  }
  return error
}
