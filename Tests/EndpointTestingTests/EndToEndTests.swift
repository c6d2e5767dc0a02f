import EndpointTesting
import EndpointTransport
import Foundation
import Testing

/// Records against the real httpbin server that the test command starts, then replays the
/// fixture through a client that fails on any network use.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct EndToEndTests {
  struct Echo: Decodable, Sendable {
    let args: [String: String]?
    let headers: [String: String]
    let json: [String: String]?
  }

  func httpbin() throws -> URL {
    try TestServers.httpbin
  }

  @Test func recordsRealTrafficThenReplaysWithNoNetwork() async throws {
    let base = try httpbin()
    try await withTemporaryFixture { file in
      let redaction = Redaction.standard.adding(
        headerNames: ["X-Api-Key"],
        queryParameterNames: ["token"],
        // httpbin echoes the request: its echoed headers and raw body text carry the secrets too.
        jsonKeys: ["password", "data", "X-Api-Key", "Authorization"]
      )
      let secrets = ["key-abc123", "tok-xyz789", "pw-secret42"]
      let get = Endpoint<Echo>(
        .get,
        path: "headers",
        relativeTo: base,
        query: [
          URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "token", value: "tok-xyz789"),
        ],
        headers: ["X-Api-Key": "key-abc123", "Authorization": "Bearer tok-xyz789"],
        parser: jsonParser(Echo.self)
      )
      let post = Endpoint<Echo>(
        .post,
        path: "anything/login",
        relativeTo: base,
        payload: .data(
          Data(#"{"user":"ada","password":"pw-secret42"}"#.utf8), contentType: "application/json"),
        parser: jsonParser(Echo.self)
      )

      let recorder = ReplayClient(
        fixture: file,
        recordingWith: URLSessionHTTPClient(),
        mode: .recordMissing,
        redaction: redaction,
        secrets: secrets,
        environment: [:]
      )
      let recordedGet = try await recorder.call(get)
      #expect(recordedGet.headers["X-Api-Key"] == "key-abc123")
      let recordedPost = try await recorder.call(post)
      #expect(recordedPost.json?["user"] == "ada")

      // /anything echoes the URL in its JSON, token included: the URL in the body is redacted
      // like the request's, so the interaction is written without the token.
      let leaky = Endpoint<Echo>(
        .get,
        path: "anything/leak",
        relativeTo: base,
        query: [URLQueryItem(name: "token", value: "tok-xyz789")],
        parser: jsonParser(Echo.self)
      )
      let recordedLeak = try await recorder.call(leaky)
      #expect(recordedLeak.args?["token"] == "tok-xyz789", "the caller gets the real response")

      let written = try String(contentsOf: file, encoding: .utf8)
      #expect(written.contains("token=%3Credacted%3E"))
      for secret in ["key-abc123", "tok-xyz789", "pw-secret42"] {
        #expect(!written.contains(secret))
      }

      // httpbin echoes the request, so redaction must also have reached the response bodies.
      let replayer = ReplayClient(
        fixture: file,
        recordingWith: NoNetworkClient(),
        redaction: redaction,
        secrets: secrets,
        environment: ["CI": "true"]
      )
      let replayedGet = try await replayer.call(get)
      #expect(replayedGet.headers["X-Api-Key"] == HTTPFields.redactedValue)
      #expect(replayedGet.headers["Authorization"] == HTTPFields.redactedValue)
      let replayedPost = try await replayer.call(post)
      #expect(replayedPost.json?["password"] == HTTPFields.redactedValue)
      #expect(replayedPost.json?["user"] == "ada")
      let replayedLeak = try await replayer.call(leaky)
      #expect(replayedLeak.args?["token"] == HTTPFields.redactedValue)
    }
  }
}
