import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct CurlCommandTests {
  @Test func plainGetIsJustTheURL() {
    let request = HTTPRequest(method: .get, url: testURL())
    #expect(request.curlCommand() == "curl https://api.example.com/items")
  }

  @Test func postWithHeadersAndBodyQuotesEveryArgument() throws {
    var request = HTTPRequest(
      method: .post,
      url: testURL("https://api.example.com/items?a=1&b=2"),
      body: HTTPBody(#"{"name":"it's"}"#)
    )
    try request.headerFields.append("application/json", for: "Content-Type")
    #expect(
      request.curlCommand()
        == #"curl -X POST 'https://api.example.com/items?a=1&b=2' -H 'Content-Type: application/json' --data-binary '{"name":"it'\''s"}'"#
    )
  }

  @Test func secretsAreRedactedByDefaultAndShownOnRequest() throws {
    var request = HTTPRequest(method: .get, url: testURL("https://u:pw@api.example.com/x?token=t1"))
    try request.headerFields.append("Bearer abc", for: "Authorization")
    #expect(
      request.curlCommand()
        == "curl 'https://<redacted>@api.example.com/x?token=<redacted>' -H 'Authorization: <redacted>'"
    )
    #expect(
      request.curlCommand(redacting: .none)
        == "curl 'https://u:pw@api.example.com/x?token=t1' -H 'Authorization: Bearer abc'")
  }

  @Test func headUsesTheHeadOption() {
    let request = HTTPRequest(method: .head, url: testURL())
    #expect(request.curlCommand() == "curl --head https://api.example.com/items")
  }

  @Test func bodyWithoutContentTypeStopsCurlFromAddingOne() {
    let request = HTTPRequest(method: .put, url: testURL(), body: HTTPBody("x"))
    #expect(
      request.curlCommand()
        == "curl -X PUT https://api.example.com/items -H 'Content-Type:' --data-binary x")
  }

  @Test func binaryBodyIsPipedInThroughPrintf() throws {
    var request = HTTPRequest(
      method: .post,
      url: testURL(),
      body: HTTPBody(Data([0, 1, 0x41, 0x25, 0x27, 0x5C, 0xFF]))
    )
    try request.headerFields.append("application/octet-stream", for: "Content-Type")
    #expect(
      request.curlCommand()
        == #"printf '\000\001A%%\047\\\377' | curl -X POST https://api.example.com/items -H 'Content-Type: application/octet-stream' --data-binary @-"#
    )
  }

  @Test func bodyStartingWithAtSignIsNotReadAsAFileName() {
    let request = HTTPRequest(method: .post, url: testURL(), body: HTTPBody("@etc/passwd"))
    #expect(request.curlCommand().hasPrefix("printf '@etc/passwd' | curl "))
    #expect(request.curlCommand().hasSuffix("--data-binary @-"))
  }

  @Test func fileBodyIsReadByCurlFromTheFile() throws {
    let url = URL(fileURLWithPath: "/tmp/endpoint curl test \(UUID().uuidString).json")
    try Data("{}".utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let request = HTTPRequest(method: .post, url: testURL(), body: try HTTPBody(contentsOf: url))
    #expect(request.curlCommand().hasSuffix("--data-binary '@\(url.path)'"))
  }

  @Test func streamedBodyIsNotShown() {
    let body = HTTPBody(RecordingChunks(["a"]), length: 1)
    let request = HTTPRequest(method: .post, url: testURL(), body: body)
    #expect(
      request.curlCommand().hasSuffix(
        "--data-binary @- # streamed body of 1 bytes not shown: pipe it in"))
  }

  @Test func timeoutBecomesMaxTime() {
    let request = HTTPRequest(method: .get, url: testURL(), timeout: .milliseconds(2_500))
    #expect(request.curlCommand() == "curl https://api.example.com/items --max-time 2.5")
  }

  @Test func formBodyFieldsAreRedacted() throws {
    var request = HTTPRequest(method: .post, url: testURL(), body: HTTPBody("user=a&password=p"))
    try request.headerFields.append(
      "application/x-www-form-urlencoded; charset=utf-8", for: "Content-Type")
    #expect(request.curlCommand().hasSuffix("--data-binary 'user=a&password=<redacted>'"))
  }
}
