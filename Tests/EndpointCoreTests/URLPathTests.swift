import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct URLPathTests {
  private func resolve(_ path: URLPath, against base: String) throws -> String {
    try path.resolved(against: try makeURL(base)).absoluteString
  }

  // The reference matrix: kean/Get's relative path tests against a host-only base, extended to
  // bases with a path, with and without a trailing slash on either side.
  @Test(arguments: [
    ("https://api.github.com", "user", "https://api.github.com/user"),
    ("https://api.github.com", "/user", "https://api.github.com/user"),
    ("https://api.github.com", "", "https://api.github.com/"),
    ("https://api.github.com", "/", "https://api.github.com/"),
    ("https://api.github.com/", "user", "https://api.github.com/user"),
    ("https://api.github.com/", "/user", "https://api.github.com/user"),
    ("https://api.github.com/", "", "https://api.github.com/"),
    ("https://api.github.com/", "/", "https://api.github.com/"),
    ("https://api.github.com", "user/", "https://api.github.com/user/"),
    ("https://a.example/v1", "x", "https://a.example/v1/x"),
    ("https://a.example/v1", "/x", "https://a.example/v1/x"),
    ("https://a.example/v1", "x/", "https://a.example/v1/x/"),
    ("https://a.example/v1", "/x/", "https://a.example/v1/x/"),
    ("https://a.example/v1", "", "https://a.example/v1"),
    ("https://a.example/v1", "/", "https://a.example/v1/"),
    ("https://a.example/v1/", "x", "https://a.example/v1/x"),
    ("https://a.example/v1/", "/x", "https://a.example/v1/x"),
    ("https://a.example/v1/", "x/", "https://a.example/v1/x/"),
    ("https://a.example/v1/", "", "https://a.example/v1/"),
    ("https://a.example/v1/", "/", "https://a.example/v1/"),
    ("https://a.example/api/v2", "users/42/repos", "https://a.example/api/v2/users/42/repos"),
    ("https://a.example/v1", "//x", "https://a.example/v1/x"),
    ("http://127.0.0.1:8080/base", "x", "http://127.0.0.1:8080/base/x"),
    ("http://[::1]:8080", "x", "http://[::1]:8080/x"),
  ])
  func relativePathKeepsTheBasePath(_ base: String, _ path: String, _ expected: String) throws {
    #expect(try resolve(URLPath(stringLiteral: path), against: base) == expected)
  }

  @Test func queryInTheLiteralIsKept() throws {
    #expect(
      try resolve("search?q=swift&page=2", against: "https://a.example/v1")
        == "https://a.example/v1/search?q=swift&page=2")
    #expect(try resolve("?q=1", against: "https://a.example/v1") == "https://a.example/v1?q=1")
  }

  @Test func baseQueryIsKeptAndTheLiteralQueryFollowsIt() throws {
    #expect(
      try resolve("items?page=2", against: "https://a.example/v1?key=abc")
        == "https://a.example/v1/items?key=abc&page=2")
    #expect(
      try resolve("items", against: "https://a.example/v1/?key=abc")
        == "https://a.example/v1/items?key=abc")
  }

  @Test func baseFragmentIsDropped() throws {
    #expect(try resolve("x", against: "https://a.example/v1#top") == "https://a.example/v1/x")
  }

  @Test func baseCredentialsAndPortAreKept() throws {
    #expect(
      try resolve("x", against: "https://me:pw@a.example:8443/v1")
        == "https://me:pw@a.example:8443/v1/x")
  }

  @Test func absoluteURLWins() throws {
    #expect(try resolve("https://x.org/y", against: "https://a.example/v1") == "https://x.org/y")
    #expect(
      try resolve("http://x.org/y?z=1", against: "https://a.example/v1") == "http://x.org/y?z=1")
    let path: URLPath = "https://x.org/y"
    #expect(path.isAbsoluteURL)
    let relative: URLPath = "x:y/z"
    #expect(!relative.isAbsoluteURL)
  }

  @Test(arguments: ["file:///tmp/base", "api.example.com/v1", "/v1", "mailto:me@a.example"])
  func aBaseWithoutAHostIsAnInvalidURL(_ base: String) throws {
    let error = try #require(throws: InvalidRequest.self) {
      try ("users" as URLPath).resolved(against: try makeURL(base))
    }
    #expect(error.kind == .url)
    #expect(error.input == (try makeURL(base)).absoluteString)
    #expect(error.reason.contains("host"))
    #expect(error.description.contains(String(reflecting: error.input ?? "")))
  }

  @Test(arguments: [
    ("../admin", "users/..%2Fadmin/repos"),
    ("a/b", "users/a%2Fb/repos"),
    ("?x", "users/%3Fx/repos"),
    ("#f", "users/%23f/repos"),
    ("..", "users/%2E%2E/repos"),
    (".", "users/%2E/repos"),
    ("a b", "users/a%20b/repos"),
    ("Zoë", "users/Zo%C3%AB/repos"),
    ("100%", "users/100%25/repos"),
    ("%2F", "users/%252F/repos"),
    ("a+b&c=d;e", "users/a%2Bb%26c=d;e/repos"),
    ("a@b.com", "users/a@b.com/repos"),
    ("503:0.6,200", "users/503:0.6,200/repos"),
    ("name:action", "users/name:action/repos"),
    ("", "users//repos"),
  ])
  func interpolatedValueStaysOneSegment(_ value: String, _ expected: String) throws {
    let path: URLPath = "users/\(value)/repos"
    #expect(path.encoded == expected)
    let url = try path.resolved(against: try makeURL("https://a.example/v1"))
    #expect(url.absoluteString == "https://a.example/v1/" + expected)
    #expect(url.host() == "a.example", "the value cannot change the host")
    #expect(url.query() == nil, "the value cannot start a query")
    #expect(url.fragment() == nil, "the value cannot start a fragment")
  }

  @Test func dotSegmentsCannotClimbOutOfTheBasePath() throws {
    let value = ".."
    let path: URLPath = "\(value)/\(value)/admin"
    let url = try path.resolved(against: try makeURL("https://a.example/api/v1"))
    #expect(url.absoluteString == "https://a.example/api/v1/%2E%2E/%2E%2E/admin")
    #expect(url.standardized.absoluteString == url.absoluteString)
  }

  @Test func interpolatedNumbersAndOtherValuesAreDescribed() {
    let id = 42
    let flag = true
    let path: URLPath = "items/\(id)/\(flag)"
    #expect(path.encoded == "items/42/true")
    #expect(path.description == "items/42/true")
  }

  @Test func interpolationInTheQueryIsOneValue() throws {
    let term = "swift & http=1#2"
    let path: URLPath = "search?q=\(term)&page=2"
    #expect(path.encoded == "search?q=swift%20%26%20http%3D1%232&page=2")
  }

  @Test func literalTextIsEncodedOnlyWhereAURLRequires() {
    let path: URLPath = "a b/ü/x@y:z/%41/%zz;v=1"
    #expect(path.encoded == "a%20b/%C3%BC/x@y:z/%41/%25zz;v=1")
    let query: URLPath = "s?q=a b&r=/?"
    #expect(query.encoded == "s?q=a%20b&r=/?")
  }

  @Test func equalPathsAreEqual() {
    let value = "x"
    #expect(("a/x" as URLPath) == "a/\(value)")
  }
}

@Suite struct URLPathDocumentationTests {
  // The table in URLPath's documentation, kept true.
  @Test(arguments: [
    ("https://api.example/v1", "users", "https://api.example/v1/users"),
    ("https://api.example/v1/", "/users", "https://api.example/v1/users"),
    ("https://api.example/v1", "users/", "https://api.example/v1/users/"),
    ("https://api.example/v1", "", "https://api.example/v1"),
    ("https://api.example", "", "https://api.example/"),
    ("https://api.example/v1", "search?q=a b", "https://api.example/v1/search?q=a%20b"),
    ("https://api.example?k=1", "users?page=2", "https://api.example/users?k=1&page=2"),
    ("https://api.example/v1", "https://x.org/y", "https://x.org/y"),
  ])
  func documentedResolutionHolds(_ base: String, _ path: String, _ expected: String) throws {
    let url = try URLPath(stringLiteral: path).resolved(against: try makeURL(base))
    #expect(url.absoluteString == expected)
  }
}

/// Already-encoded text goes into a path unchanged.
@Suite struct RawSegmentTests {
  @Test func rawTextIsInsertedAsItIs() throws {
    let key = "photos%2F2024%2Fa.jpg"
    let path: URLPath = "objects/\(raw: key)/meta"
    #expect(path.encoded == "objects/photos%2F2024%2Fa.jpg/meta")
    let url = try path.resolved(against: try #require(URL(string: "https://s3.example.com/b")))
    #expect(url.absoluteString == "https://s3.example.com/b/objects/photos%2F2024%2Fa.jpg/meta")
  }
}
