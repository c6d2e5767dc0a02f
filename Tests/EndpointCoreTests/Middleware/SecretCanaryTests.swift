import EndpointCore
import EndpointKernel
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Requests carrying a distinct canary secret in every place a secret can hide; no output of
/// the SDK may contain the word `canary`.
enum Canaries {
  static let url = testURL(
    "https://alice:canary-userinfo@api.example.com/v1/login?x-api-key=canary-query&page=2")

  static func headers() throws -> HTTPFields {
    try HTTPFields([("X-Session-Id", "canary-header"), ("Accept", "application/json")])
  }

  static func requests() throws -> [HTTPRequest] {
    let form = RequestPayload.formURLEncoded([("user", "ada"), ("password", "canary-form")])
    let multipart = RequestPayload.multipart([
      .text(name: "user", value: "ada"), .text(name: "client_secret", value: "canary-multipart"),
    ])
    let json = RequestPayload(
      contentType: "application/json",
      body: HTTPBody(#"{"user":{"name":"ada","credentials":{"refresh_token":"canary-json"}}}"#)
    )
    return try [form, multipart, json].map { payload in
      var fields = try headers()
      if let type = payload.contentType { try fields.append(type, for: "Content-Type") }
      return HTTPRequest(method: .post, url: url, headerFields: fields, body: payload.body)
    }
  }

  /// A JSON response the server labels as plain text, issuing a token.
  static let responseBody = #"{"token_type":"bearer","access_token":"canary-response","id":7}"#

  static func responseFields() throws -> HTTPFields {
    try HTTPFields([
      ("Content-Type", "text/plain"), ("Location", "/callback?code=canary-location&state=ok"),
    ])
  }
}

@Suite struct SecretCanaryTests {
  @Test func logsWithHeadersAndPreviewsShowNoCanary() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let fields = try Canaries.responseFields()
    let inMemory = ScriptedClient { _, _ in
      (HTTPResponse(status: 200, headerFields: fields), HTTPBody(Canaries.responseBody))
    }
    let streamed = ScriptedClient { _, _ in
      (
        HTTPResponse(status: 200, headerFields: fields),
        RecordingChunks([Canaries.responseBody]).body
      )
    }
    for client in [inMemory, streamed] {
      let logged = client.with(
        logging(into: entries, includesHeaders: true, bodyPreviewLimit: 4096))
      for request in try Canaries.requests() {
        let (_, body) = try await logged.send(request)
        _ = try await body.collect(upTo: 1 << 20)
      }
    }
    #expect(entries.value.count == 6)
    for entry in entries.value {
      #expect(!entry.description.contains("canary"), "\(entry)")
      #expect(entry.description.contains("ada"))
    }
  }

  @Test func failuresInLogsShowNoCanary() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let failing = ScriptedClient { request, _ in
      throw TransportFailure.idleTimeout(
        method: request.method, url: request.url, limit: .seconds(1), silence: .seconds(2))
    }.with(logging(into: entries))
    let request = try #require(try Canaries.requests().first)
    let failure = await #expect(throws: TransportFailure.self) { try await failing.send(request) }
    #expect(failure?.kind == .idleTimeout)
    let entry = try #require(entries.value.first)
    #expect(!entry.description.contains("canary"), "\(entry)")
  }

  @Test func curlCommandsShowNoCanary() throws {
    for request in try Canaries.requests() {
      let command = request.curlCommand()
      #expect(!command.contains("canary"), "\(command)")
      #expect(command.contains("ada"))
      #expect(request.curlCommand(redacting: .none).contains("canary"))
    }
  }

  @Test func errorDescriptionsShowNoCanary() throws {
    let body = Data(Canaries.responseBody.utf8)
    let unexpected = UnexpectedResponse(
      method: .post,
      url: Canaries.url,
      response: HTTPResponse(status: 302, headerFields: try Canaries.responseFields()),
      body: body
    )
    let parsing = ParsingFailure(
      type: "Session", path: "access_token", reason: "expected a number", body: body)
    let timeout = TransportFailure.idleTimeout(
      method: .post, url: Canaries.url, limit: .seconds(1), silence: .seconds(2))
    let redirects = TransportFailure.tooManyRedirects(
      method: .get, limit: 1, chain: [Canaries.url, Canaries.url])
    for description in [
      unexpected.description, parsing.description, timeout.description, redirects.description,
      "\(try Canaries.requests()[0])",
    ] {
      #expect(!description.contains("canary"), "\(description)")
    }
    #expect(unexpected.description.contains(#""id":7"#))
  }
}

@Suite struct SecretPreviewTests {
  @Test func aStreamedPreviewCutInsideASecretValueShowsNoneOfIt() async throws {
    let entries = Recorder<[HTTPLogEntry]>([])
    let body = #"{"user":"ada","access_token":"canary-cut-0123456789"}"#
    let client = ScriptedClient { _, _ in (HTTPResponse(status: 200), RecordingChunks([body]).body)
    }
    .with(logging(into: entries, bodyPreviewLimit: 36))
    let (_, response) = try await client.send(HTTPRequest(method: .get, url: testURL()))
    _ = try await response.collect(upTo: 1 << 20)
    let preview = try #require(entries.value.first?.responseBodyPreview)
    #expect(!preview.contains("canary"), "\(preview)")
    #expect(preview.hasPrefix(#"{"user":"ada","access_token":"#))
  }
}

@Suite struct SecretErrorTextTests {
  @Test func anInvalidURLErrorHidesTheCredentialsOfItsInput() {
    let error = InvalidRequest(
      .url, reason: "not a valid absolute URL",
      input: "https://alice:canary-pw@api.example.com/a b?token=canary-t&page=1")
    #expect(!error.description.contains("canary"), "\(error)")
    #expect(error.description.contains("page=1"))
  }
}
