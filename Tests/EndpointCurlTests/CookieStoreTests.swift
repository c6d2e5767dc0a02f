import Foundation
import Testing

@testable import EndpointCurl

/// The curl client's opt-in cookie store, with the rules of the URLSession client's cookies
/// (`CookieTests` in the transport tests) against httpbin: kept per client, every cookie of a
/// response, deleted when the server deletes it; off by default.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CookieStoreTests {
  private func client(storesCookies: Bool = true) throws -> CurlHTTPClient {
    var configuration = CurlHTTPClient.Configuration()
    configuration.storesCookies = storesCookies
    return try CurlHTTPClient(configuration: configuration)
  }

  private func cookies(
    after path: String,
    through client: CurlHTTPClient
  ) async throws -> [String: String]? {
    let url = try TestServers.httpbin.adding(path)
    let (_, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    return json["cookies"] as? [String: String]
  }

  @Test func aCookieIsSentWithLaterExchangesOfTheSameClient() async throws {
    let client = try client()
    #expect(
      try await cookies(after: "/cookies/set?flavour=oatmeal", through: client) == [
        "flavour": "oatmeal"
      ])
    #expect(try await cookies(after: "/cookies", through: client) == ["flavour": "oatmeal"])
    // Another client has its own store.
    #expect(try await cookies(after: "/cookies", through: self.client()) == [:])
  }

  @Test func everyCookieOfAResponseIsKept() async throws {
    let client = try client()
    let set = try await cookies(after: "/cookies/set?a=1&b=two&c=3", through: client)
    #expect(set == ["a": "1", "b": "two", "c": "3"])
    #expect(
      try await cookies(after: "/cookies", through: client) == ["a": "1", "b": "two", "c": "3"])
  }

  @Test func aCookieDeletedByTheServerIsNoLongerSent() async throws {
    let client = try client()
    _ = try await cookies(after: "/cookies/set?a=1&b=2", through: client)
    #expect(try await cookies(after: "/cookies/delete?a", through: client) == ["b": "2"])
    #expect(try await cookies(after: "/cookies", through: client) == ["b": "2"])
  }

  @Test func everyConnectionOfTheClientSharesTheStore() async throws {
    let client = try client()
    _ = try await cookies(after: "/cookies/set?shared=yes", through: client)
    // Concurrent requests hold several easy handles and connections at once.
    let seen = try await withThrowingTaskGroup(of: [String: String]?.self) { group in
      for _ in 0..<6 {
        group.addTask {
          // A slow exchange keeps its connection busy, so the next ones open others.
          _ = try await self.cookies(after: "/delay/0.3", through: client)
          return nil
        }
        group.addTask { try await self.cookies(after: "/cookies", through: client) }
      }
      var all: [[String: String]] = []
      for try await value in group { if let value, !value.isEmpty { all.append(value) } }
      return all
    }
    #expect(seen.count == 6)
    #expect(seen.allSatisfy { $0 == ["shared": "yes"] })
  }

  @Test func byDefaultCookiesLastOneRedirectChainOnly() async throws {
    let client = try client(storesCookies: false)
    // Carried to the redirect's target, as a browser would…
    #expect(
      try await cookies(after: "/cookies/set?flavour=oatmeal", through: client) == [
        "flavour": "oatmeal"
      ])
    // …and never to a later exchange.
    #expect(try await cookies(after: "/cookies", through: client) == [:])
  }
}
