import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct UnexpectedResponseTests {
  @Test func keepsEverythingNeededToAct() throws {
    let url = try makeURL("https://a.example/users/1")
    let head = try response(422, [("Content-Type", "application/json")], url: url)
    let error = UnexpectedResponse(
      method: .post, url: url, response: head, body: bytes("{\"error\":\"bad\"}"),
      accepted: .codes(201))
    #expect(error.method == .post)
    #expect(error.url == url)
    #expect(error.status == 422)
    #expect(error.response == head)
    #expect(error.headerFields["content-type"] == "application/json")
    #expect(error.body == bytes("{\"error\":\"bad\"}"))
    #expect(error.accepted == .codes(201))
    #expect(
      error.description
        == """
        POST https://a.example/users/1 → 422 Unprocessable Content (expected 201)
          Content-Type: application/json
          body: {"error":"bad"}
        """)
  }

  @Test func descriptionRedactsCredentials() throws {
    let url = try makeURL("https://user:hunter2@a.example/x?access_token=s3cret&page=2")
    let head = try response(
      401, [("WWW-Authenticate", "Bearer"), ("Set-Cookie", "session=abc123")])
    let error = UnexpectedResponse(method: .get, url: url, response: head, body: Data())
    let text = error.description
    #expect(!text.contains("hunter2"))
    #expect(!text.contains("s3cret"))
    #expect(!text.contains("abc123"))
    #expect(text.contains("https://<redacted>@a.example/x?access_token=<redacted>&page=2"))
    #expect(text.contains("Set-Cookie: <redacted>"))
    #expect(text.contains("WWW-Authenticate: Bearer"))
    #expect(text.contains("body: <empty>"))
    #expect(error.url == url, "the error itself keeps the real URL")
  }

  @Test func descriptionSnippetIsBoundedAndUTF8Safe() throws {
    let body = Data(String(repeating: "é", count: 2000).utf8)  // 4000 bytes
    let error = UnexpectedResponse(
      method: .get, url: try makeURL("https://a.example"), response: try response(500), body: body)
    let snippet = try #require(error.description.split(separator: "body: ").last)
    #expect(snippet.utf8.count < 512 + 40)
    #expect(snippet.hasPrefix(String(repeating: "é", count: 256)))
    #expect(snippet.hasSuffix("… (3488 more bytes)"))
    #expect(!snippet.contains("\u{FFFD}"))
    #expect(error.body.count == 4000, "the whole body is kept")
  }

  @Test func binaryBodyIsDescribedBySize() throws {
    let error = UnexpectedResponse(
      method: .get, url: try makeURL("https://a.example"), response: try response(500),
      body: Data([0x00, 0x01, 0xFF]))
    #expect(error.description.hasSuffix("body: <3 bytes of binary data>"))
  }
}

@Suite struct URLRedactionTests {
  @Test(arguments: [
    ("https://a.example/x", "https://a.example/x"),
    ("https://me@a.example/x", "https://<redacted>@a.example/x"),
    ("https://me:pw@a.example:8443/x", "https://<redacted>@a.example:8443/x"),
    (
      "https://a.example/x?page=2&api_key=k&Token=t",
      "https://a.example/x?page=2&api_key=<redacted>&Token=<redacted>"
    ),
    (
      "https://a.example/x?client_secret=s&X-Amz-Signature=abc#f",
      "https://a.example/x?client_secret=<redacted>&X-Amz-Signature=<redacted>#f"
    ),
    (
      "https://a.example/x?api%5Fkey=k&flag&key",
      "https://a.example/x?api%5Fkey=<redacted>&flag&key"
    ),
    ("https://a.example/a@b?q=1", "https://a.example/a@b?q=1"),
    (
      "https://a.example/app;jsessionid=s1/items;v=2;PHPSESSID=s2?q=1",
      "https://a.example/app;jsessionid=<redacted>/items;v=2;PHPSESSID=<redacted>?q=1"
    ),
    ("https://a.example/a;b/c;=d;e=", "https://a.example/a;b/c;=d;e="),
  ])
  func credentialsAreHidden(_ input: String, _ expected: String) throws {
    #expect(Redaction.redacted(try makeURL(input)) == expected)
  }

  @Test func additionalNamesAreHiddenInAnyCase() throws {
    let url = try makeURL("https://a.example/x?Sid=1&page=2")
    #expect(
      Redaction.redacted(url, additionalQueryNames: ["sid"])
        == "https://a.example/x?Sid=<redacted>&page=2")
  }

  @Test func sensitiveQueryNames() {
    #expect(Redaction.isSensitiveQueryName("access_token"))
    #expect(Redaction.isSensitiveQueryName("REFRESH_TOKEN"))
    #expect(Redaction.isSensitiveQueryName("password"))
    #expect(!Redaction.isSensitiveQueryName("page"))
  }
}
