import EndpointJSON
import EndpointTesting
import Foundation
import Testing

/// A paginated walk tested with a stub, as the Pagination article suggests: no network.
@Suite struct PaginationStubTests {
  @Test func aStubbedLinkWalkAsksForEachPageOnceAndInOrder() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/repos").reply { request in
      let page = Int(request.query("page") ?? "1") ?? 1
      let names = (0..<2).map { "repo-\(page)-\($0)" }
      guard page < 3 else { return .json(names) }
      return .json(names, headers: ["Link": "<repos?page=\(page + 1)>; rel=\"next\""])
    }
    let first = Endpoint<[String]>(json: .get, url: api.appending(path: "repos"))
    var names: [String] = []
    for try await name in stub.items(of: first, paginator: .linkHeader()) { names.append(name) }
    #expect(names.count == 6)
    #expect(names.first == "repo-1-0")
    #expect(names.last == "repo-3-1")
    #expect(stub.requests.map { $0.request.url.query ?? "" } == ["", "page=2", "page=3"])
  }

  @Test func aStubbedWalkStopsAtTheItemLimitWithoutAskingForMore() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/repos").reply { request in
      let page = Int(request.query("page") ?? "1") ?? 1
      return .json(
        (0..<10).map { "repo-\(page)-\($0)" },
        headers: ["Link": "<repos?page=\(page + 1)>; rel=\"next\""]
      )
    }
    let first = Endpoint<[String]>(json: .get, url: api.appending(path: "repos"))
    var names: [String] = []
    for try await name in stub.items(of: first, paginator: .linkHeader(), maximumItems: 12) {
      names.append(name)
    }
    #expect(names.count == 12)
    #expect(stub.requests.count == 2)
  }
}
