import EndpointCore
import EndpointJSON
import EndpointPrimitives
import EndpointTestSupport
import Foundation
import Synchronization
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

private struct LinkPage: Codable, Sendable {
  var page: Int
  var items: [Int]
}

private struct CursorPage: Codable, Sendable {
  var items: [Int]
  var next: String?
}

private struct NumberedPage: Codable, Sendable {
  var page: Int
  var items: [Int]
  var total: Int
}

/// Walking the fault server's paginated routes over both transports, through middleware.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct PaginationWireTests {
  @Test(arguments: TransportUnderTest.allCases)
  func awkwardLinkFieldsLeadThroughEveryPage(transport: TransportUnderTest) async throws {
    let seen = Mutex<[String]>([])
    let client = AnyClient(try transport.makeClient()).with(
      ClosureMiddleware { request, next in
        seen.withVisibleLock { $0.append(request.url.query ?? "") }
        return try await next(request)
      }
    )
    let first = Endpoint<LinkPage>(
      json: .get,
      url: try TestServers.fault.adding("/pages/link?page=1&size=3")
    )
    var pages: [Int] = []
    var items: [Int] = []
    for try await page in client.pages(of: first, paginator: .linkHeader()) {
      pages.append(page.resource.page)
      items += page.resource.items
    }
    #expect(pages == [1, 2, 3, 4])
    #expect(items == Array(0..<10))
    // Every page went through the client's middleware, each asked for once.
    #expect(seen.withVisibleLock { $0 } == (1...4).map { "page=\($0)&size=3" })
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aCursorFromTheBodyWalksToTheEnd(transport: TransportUnderTest) async throws {
    let client = AnyClient(try transport.makeClient())
    let first = Endpoint<CursorPage>(
      json: .get,
      url: try TestServers.fault.adding("/pages/cursor?limit=4")
    )
    var items: [Int] = []
    var count = 0
    for try await page in client.pages(of: first, paginator: .cursor(name: "after") { $0.next }) {
      items += page.resource.items
      count += 1
    }
    #expect(items == Array(0..<10))
    #expect(count == 3)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func pageNumbersStopAtTheTotal(transport: TransportUnderTest) async throws {
    let client = AnyClient(try transport.makeClient())
    let first = Endpoint<NumberedPage>(
      json: .get,
      url: try TestServers.fault.adding("/pages/number?per_page=5")
    )
    let walk = client.pages(
      of: first,
      paginator: .pageNumber(
        name: "page", pageSize: 5, count: { $0.items.count }, total: { $0.total })
    )
    var numbers: [Int] = []
    for try await page in walk { numbers.append(page.resource.page) }
    // 10 items at 5 a page: the total ends the walk after page 2, with no empty third page.
    #expect(numbers == [1, 2])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func cancellingMidWalkStopsAtOnceAndAsksForNoMorePages(transport: TransportUnderTest)
    async throws
  {
    let asked = Mutex(0)
    let client = AnyClient(try transport.makeClient()).with(
      ClosureMiddleware { request, next in
        asked.withVisibleLock { $0 += 1 }
        return try await next(request)
      }
    )
    // Pages after the first take 10 s to arrive.
    let first = Endpoint<LinkPage>(
      json: .get,
      url: try TestServers.fault.adding("/pages/link?page=1&size=3&delay_ms=10000")
    )
    let firstPageSeen = Mutex(false)
    let walk = Task {
      var pages = 0
      for try await _ in client.pages(of: first, paginator: .linkHeader()) {
        pages += 1
        firstPageSeen.withVisibleLock { $0 = true }
      }
      return pages
    }
    let start = ContinuousClock.now
    while !firstPageSeen.withVisibleLock({ $0 }), ContinuousClock.now - start < .seconds(20) {
      try await Task.sleep(for: .milliseconds(10))
    }
    try await Task.sleep(for: .milliseconds(200))  // the second page is in flight
    let cancelled = ContinuousClock.now
    walk.cancel()
    await #expect(throws: CancellationError.self) { _ = try await walk.value }
    #expect(ContinuousClock.now - cancelled < .seconds(5))
    #expect(asked.withVisibleLock { $0 } == 2)
  }
}
