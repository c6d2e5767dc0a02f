import EndpointTestSupport
import Synchronization
import Testing

@testable import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Walking paginated APIs as asynchronous sequences of pages and items.
@Suite struct PaginationTests {
  /// Items as comma-separated text.
  private func list(_ url: String) -> Endpoint<[String]> {
    Endpoint<String>(.get, url: testURL(url), parser: .string).map {
      $0.isEmpty ? [] : $0.split(separator: ",").map(String.init)
    }
  }

  /// A server of pages `pages`, each linking to the next by `Link` (relative targets).
  private func linkedServer(_ pages: [String], linkPrefix: String = "/items?page=")
    -> ScriptedClient
  {
    ScriptedClient { request, _ in
      let query = request.url.query() ?? ""
      let number = Int(query.split(separator: "=").last ?? "1") ?? 1
      var headers: [(String, String)] = []
      if number < pages.count {
        headers.append(
          (
            "Link",
            #"<https://api.example.com/items?page=1>; rel="first", "#
              + #"<\#(linkPrefix)\#(number + 1)>; rel="next", <x,y>; title="a, b; c""#
          ))
      }
      return reply(200, headers: headers, body: pages[number - 1])
    }
  }

  @Test func theLinkHeaderLeadsThroughEveryPageLazily() async throws {
    let server = linkedServer(["a,b", "c", "d,e"])
    var iterator = server.items(
      of: list("https://api.example.com/items?page=1"), paginator: .linkHeader()
    ).makeAsyncIterator()
    #expect(try await iterator.next() == "a")
    #expect(server.requests.count == 1, "the second page waits until it is needed")
    var rest: [String] = []
    while let item = try await iterator.next() { rest.append(item) }
    #expect(rest == ["b", "c", "d", "e"])
    #expect(server.requests.map { $0.url.query() ?? "" } == ["page=1", "page=2", "page=3"])
  }

  @Test func linkFieldsAreParsedByRFC8288() {
    let links = WebLink.parse([
      #"<https://a.test/p?x=1,2>; rel="prev next"; title="one, two; three", </q>;rel=last"#,
      "<https://b.test/>; REL=next; rel=ignored",
    ])
    #expect(links.map(\.target) == ["https://a.test/p?x=1,2", "/q", "https://b.test/"])
    #expect(links[0].parameters["title"] == "one, two; three")
    #expect(links[0].hasRelation("next") && links[0].hasRelation("PREV"))
    let fields: HTTPFields = [
      "Link": #"<https://a.test/p?x=1,2>; rel="prev next"; title="a, b", </q>;rel=last"#
    ]
    #expect(fields.linkTargets(relation: "NEXT") == ["https://a.test/p?x=1,2"])
    #expect(fields.linkTargets(relation: "last") == ["/q"])
    #expect(fields.linkTargets(relation: "first").isEmpty)
    #expect(links[1].hasRelation("last"))
    #expect(links[2].parameters["rel"] == "next")
  }

  @Test func aNextLinkToAnotherOriginIsRefusedUnlessAllowed() async throws {
    let server = linkedServer(["a", "b"], linkPrefix: "https://evil.example.com/items?page=")
    let endpoint = list("https://api.example.com/items?page=1")
    let refused = await expectInvalidRequest(.pageLink) {
      for try await _ in server.items(of: endpoint, paginator: .linkHeader()) {}
    }
    #expect(refused?.input == "https://evil.example.com/items?page=2")
    #expect(
      refused?.description
        == "The next page's link https://evil.example.com/items?page=2 is not followed: it leads "
        + "to another origin; allow it with linkHeader(allowingOtherOrigins: true)")
    var all: [String] = []
    for try await item in server.items(
      of: endpoint, paginator: .linkHeader(allowingOtherOrigins: true))
    {
      all.append(item)
    }
    #expect(all == ["a", "b"])
    #expect(server.requests.last?.url.host() == "evil.example.com")
  }

  @Test func aCursorFromTheBodyIsSentAsAQueryItem() async throws {
    let server = ScriptedClient { request, _ in
      switch request.url.query() ?? "" {
      case "": reply(200, body: "1,2|c1")
      case "after=c1": reply(200, body: "3|c2")
      default: reply(200, body: "4|")
      }
    }
    let endpoint = Endpoint<String>(.get, url: testURL(), parser: .string)
    let pages = server.pages(
      of: endpoint,
      paginator: .cursor(name: "after") {
        String($0.split(separator: "|", omittingEmptySubsequences: false).last ?? "")
      })
    var bodies: [String] = []
    for try await page in pages { bodies.append(page.resource) }
    #expect(bodies == ["1,2|c1", "3|c2", "4|"])
    #expect(server.requests.map { $0.url.query() ?? "" } == ["", "after=c1", "after=c2"])
  }

  /// A cursor page with its items inside, made a `Sequence` of them as the Pagination article says.
  private struct CursorPage: Sequence, Sendable {
    var items: [String]
    var next: String
    func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }
  }

  @Test func itemsWalksAPageTypeThatIsASequenceOfItsItems() async throws {
    let server = ScriptedClient { request, _ in
      switch request.url.query() ?? "" {
      case "": reply(200, body: "1,2|c1")
      default: reply(200, body: "3|")
      }
    }
    let endpoint = Endpoint<String>(.get, url: testURL(), parser: .string).map { text in
      let parts = text.split(separator: "|", omittingEmptySubsequences: false)
      return CursorPage(
        items: parts[0].split(separator: ",").map(String.init), next: String(parts.last ?? ""))
    }
    var items: [String] = []
    for try await item in server.items(of: endpoint, paginator: .cursor(name: "after") { $0.next })
    {
      items.append(item)
    }
    #expect(items == ["1", "2", "3"])
  }

  @Test func pageNumbersStopAtAShortPage() async throws {
    let server = ScriptedClient { request, index in
      reply(200, body: ["a,b", "c,d", "e"][min(index, 2)])
    }
    var items: [String] = []
    for try await item in server.items(
      of: list("https://api.example.com/items"),
      paginator: .pageNumber(pageSize: 2, count: { $0.count }))
    {
      items.append(item)
    }
    #expect(items == ["a", "b", "c", "d", "e"])
    #expect(server.requests.map { $0.url.query() ?? "" } == ["", "page=2", "page=3"])
  }

  @Test func offsetsStopAtTheTotal() async throws {
    let server = ScriptedClient { _, _ in reply(200, body: "x,y") }
    var count = 0
    for try await _ in server.items(
      of: list("https://api.example.com/items"),
      paginator: .offset(limit: 2, count: { $0.count }, total: { _ in 6 }))
    {
      count += 1
    }
    #expect(count == 6)
    #expect(
      server.requests.map { $0.url.query() ?? "" } == ["", "offset=2&limit=2", "offset=4&limit=2"])
  }

  @Test func limitsStopTheWalk() async throws {
    let server = linkedServer(["a,b", "c,d", "e,f"])
    let endpoint = list("https://api.example.com/items?page=1")
    var items: [String] = []
    for try await item in server.items(of: endpoint, paginator: .linkHeader(), maximumItems: 3) {
      items.append(item)
    }
    #expect(items == ["a", "b", "c"])
    #expect(server.requests.count == 2)
    var pages = 0
    for try await _ in server.pages(of: endpoint, paginator: .linkHeader(), maximumPages: 1) {
      pages += 1
    }
    #expect(pages == 1)
    #expect(server.requests.count == 3)
  }

  /// Each request says which of the consumer's calls to `next()` made it (a task-local that the
  /// prefetch inherits), so the test waits for the requests themselves instead of a clock, and a
  /// page fetched two ahead shows as made by too early a call.
  @Test(.timeLimit(.minutes(1))) func prefetchFetchesOnePageAheadAndNoMore() async throws {
    let pages = linkedServer(["a", "b", "c", "d"])
    let (arrivals, arrival) = AsyncStream.makeStream(of: String.self)
    let server = ScriptedClient { request, index in
      arrival.yield("page \(index + 1) by call \(ConsumerCall.number)")
      return try await pages.send(request)
    }
    var iterator = server.pages(
      of: list("https://api.example.com/items?page=1"), paginator: .linkHeader(), prefetch: true
    ).makeAsyncIterator()
    var requests = arrivals.makeAsyncIterator()
    _ = try await ConsumerCall.$number.withValue(1) { try await iterator.next() }
    #expect(await requests.next() == "page 1 by call 1")
    #expect(await requests.next() == "page 2 by call 1", "one page ahead")
    _ = try await ConsumerCall.$number.withValue(2) { try await iterator.next() }
    #expect(await requests.next() == "page 3 by call 2", "and no more")
  }

  @Test func aParserErrorOrARejectedStatusEndsTheWalkWithTheError() async throws {
    let server = ScriptedClient { _, index in
      index == 0
        ? reply(200, headers: [("Link", "</items?page=2>; rel=next")], body: "a")
        : reply(500, body: "boom")
    }
    var items: [String] = []
    await #expect(throws: UnexpectedResponse.self) {
      for try await item in server.items(
        of: list("https://api.example.com/items"), paginator: .linkHeader())
      {
        items.append(item)
      }
    }
    #expect(items == ["a"])
  }
}

/// Which call to `next()` a request comes from.
private enum ConsumerCall {
  @TaskLocal static var number = 0
}
