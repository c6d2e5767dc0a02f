import EndpointCore
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct EndpointQueryTests {
  private func requestURL(_ url: String, _ query: [URLQueryItem]) throws -> String {
    try Endpoint(.get, url: try makeURL(url), query: query, parser: .void()).request().url
      .absoluteString
  }

  @Test func queryIsAddedToAURLWithoutOne() throws {
    #expect(
      try requestURL(
        "https://a.example/x", [.init(name: "a", value: "1"), .init(name: "b", value: "2")])
        == "https://a.example/x?a=1&b=2")
  }

  @Test func queryIsAppendedToAnExistingQuery() throws {
    #expect(
      try requestURL("https://a.example/x?key=abc", [.init(name: "page", value: "2")])
        == "https://a.example/x?key=abc&page=2")
    #expect(
      try requestURL("https://a.example/x?", [.init(name: "page", value: "2")])
        == "https://a.example/x?page=2")
    #expect(
      try requestURL("https://a.example/x?a=1&", [.init(name: "page", value: "2")])
        == "https://a.example/x?a=1&page=2")
  }

  @Test func noQueryLeavesTheURLAlone() throws {
    #expect(try requestURL("https://a.example/x?y=1#f", []) == "https://a.example/x?y=1#f")
  }

  @Test func fragmentIsPreservedAfterTheQuery() throws {
    #expect(
      try requestURL("https://a.example/x#section", [.init(name: "a", value: "1")])
        == "https://a.example/x?a=1#section")
    #expect(
      try requestURL("https://a.example/x?y=1#section", [.init(name: "a", value: "1")])
        == "https://a.example/x?y=1&a=1#section")
  }

  @Test(arguments: [
    ("1+1", "1%2B1"),
    ("a b", "a%20b"),
    ("a&b", "a%26b"),
    ("a=b", "a%3Db"),
    ("#x", "%23x"),
    ("/x", "%2Fx"),
    ("?x", "%3Fx"),
    ("Zoë ✓", "Zo%C3%AB%20%E2%9C%93"),
    ("100%", "100%25"),
    ("-._~", "-._~"),
    ("", ""),
  ])
  func reservedCharactersInNamesAndValuesArePercentEncoded(_ raw: String, _ encoded: String)
    throws
  {
    let url = try requestURL("https://a.example/x", [.init(name: raw, value: raw)])
    #expect(url == "https://a.example/x?\(encoded)=\(encoded)")
  }

  @Test func itemWithoutAValueHasNoEqualsSign() throws {
    #expect(
      try requestURL(
        "https://a.example/x", [.init(name: "flag", value: nil), .init(name: "a", value: "")])
        == "https://a.example/x?flag&a=")
  }

  @Test func repeatedNamesAreKeptInOrder() throws {
    #expect(
      try requestURL(
        "https://a.example/x", [.init(name: "id", value: "2"), .init(name: "id", value: "1")])
        == "https://a.example/x?id=2&id=1")
  }

  @Test func addingQueryAppendsAfterTheExistingItems() throws {
    let endpoint = Endpoint(
      .get, url: try makeURL("https://a.example/x"), query: [.init(name: "a", value: "1")],
      parser: .void())
    let added = endpoint.addingQuery("b", "2 3").addingQuery([.init(name: "c", value: nil)])
    #expect(added.query.map(\.name) == ["a", "b", "c"])
    #expect(try added.request().url.absoluteString == "https://a.example/x?a=1&b=2%203&c")
    #expect(endpoint.query.count == 1, "the original is unchanged")
  }

  @Test func queryCombinesWithAResolvedPathQuery() throws {
    let endpoint = Endpoint(
      .get, path: "search?sort=asc", relativeTo: try makeURL("https://a.example/v1?key=k"),
      query: [.init(name: "q", value: "a&b")], parser: .data)
    #expect(
      try endpoint.request().url.absoluteString
        == "https://a.example/v1/search?key=k&sort=asc&q=a%26b")
  }
}
