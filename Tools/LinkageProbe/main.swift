// An executable that uses only EndpointCore and EndpointJSON, so that `ldd` on it shows what a
// user of those two modules links: scripts/check-linkage.sh fails when that includes Foundation,
// FoundationNetworking, FoundationInternationalization, FoundationXML or ICU.
//
// It exercises the modules for real (build, resolve, send through a client, parse, map, error
// paths) so the linker keeps their code, and exits non-zero when a result is wrong.

import EndpointCore
import EndpointJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

struct Greeting: Codable, Equatable, Sendable {
  var id: Int
  var text: String
}

struct ProbeFailure: Error, CustomStringConvertible {
  var description: String
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw ProbeFailure(description: message()) }
}

let jsonParser = ResponseParser<Greeting>(accept: "application/json") { _, body in
  try JSONDecoder().decode(Greeting.self, from: body)
}

/// A client that answers every request with the JSON body it was sent, as a server echoing it.
struct EchoClient: HTTPClient {
  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    let body = try await request.body?.collect(upTo: 1 << 20) ?? Data()
    var fields = HTTPFields()
    try fields.append("application/json", for: "Content-Type")
    return (HTTPResponse(status: 200, headerFields: fields, url: request.url), HTTPBody(body))
  }
}

func runProbe() async throws {
  guard let base = URL(string: "https://api.example.com/v1/") else {
    throw ProbeFailure(description: "base URL did not parse")
  }
  let sent = Greeting(id: 7, text: "héllo & bye")
  let endpoint = Endpoint<Greeting>(
    .post,
    path: "greetings/\("a/b")",
    relativeTo: base,
    query: [URLQueryItem(name: "lang", value: "en gb+")],
    payload: .data(try JSONEncoder().encode(sent), contentType: "application/json"),
    parser: jsonParser
  )

  let request = try endpoint.request()
  try check(request.method == .post, "method is \(request.method)")
  try check(
    request.url.absoluteString == "https://api.example.com/v1/greetings/a%2Fb?lang=en%20gb%2B",
    "URL is \(request.url.absoluteString)"
  )
  try check(request.headerFields["Content-Type"] == "application/json", "\(request.headerFields)")
  try check(request.headerFields["Accept"] == "application/json", "\(request.headerFields)")

  let received = try await EchoClient().call(endpoint)
  try check(received == sent, "call returned \(received)")

  let texts = endpoint.map { $0.text.uppercased() }
  let text = try await EchoClient().call(texts)
  try check(text == "HÉLLO & BYE", "map returned \(text)")

  let notFound = HTTPResponse(status: 404, url: request.url)
  do {
    _ = try endpoint.parse(notFound, Data(#"{"error":"missing"}"#.utf8))
    throw ProbeFailure(description: "a 404 was parsed as a success")
  } catch let error as UnexpectedResponse {
    try check(error.status == 404, "unexpected status \(error.status)")
  }

  print("LinkageProbe: ok (\(request.method) \(request.url.absoluteString) -> \(received.text))")
}

do {
  try await runProbe()
} catch {
  print("LinkageProbe: FAILED: \(error)")
  exit(1)
}
