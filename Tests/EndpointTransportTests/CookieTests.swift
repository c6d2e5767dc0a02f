import Foundation
import Testing

@testable import EndpointTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The URLSession client keeps a cookie jar per client, as URLSession does: cookies a response
/// sets are sent with later requests to their domain, as its session configuration says.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CookieTests {
  private func client(
    _ adjust: (URLSessionConfiguration) -> Void = { _ in }
  ) -> URLSessionHTTPClient {
    // Every `.ephemeral` configuration has a jar of its own: the tests never see each other's
    // cookies.
    let session = URLSessionHTTPClient.Configuration.defaultSessionConfiguration()
    adjust(session)
    return URLSessionHTTPClient(configuration: .init(sessionConfiguration: session))
  }

  private func cookies(
    after path: String,
    through client: URLSessionHTTPClient
  ) async throws -> [String: String]? {
    let url = try TestServers.httpbin.adding(path)
    let (_, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: url))
    return json["cookies"] as? [String: String]
  }

  @Test func aCookieIsSentWithLaterExchangesOfTheSameClient() async throws {
    let client = client()
    #expect(
      try await cookies(after: "/cookies/set?flavour=oatmeal", through: client) == [
        "flavour": "oatmeal"
      ])
    #expect(try await cookies(after: "/cookies", through: client) == ["flavour": "oatmeal"])
    // Another client has its own jar.
    #expect(try await cookies(after: "/cookies", through: self.client()) == [:])
  }

  @Test func everyCookieOfAResponseIsKept() async throws {
    let client = client()
    let set = try await cookies(after: "/cookies/set?a=1&b=two&c=3", through: client)
    #expect(set == ["a": "1", "b": "two", "c": "3"])
    #expect(
      try await cookies(after: "/cookies", through: client) == ["a": "1", "b": "two", "c": "3"])
  }

  @Test func aCookieDeletedByTheServerIsNoLongerSent() async throws {
    let client = client()
    _ = try await cookies(after: "/cookies/set?a=1&b=2", through: client)
    #expect(try await cookies(after: "/cookies/delete?a", through: client) == ["b": "2"])
  }

  @Test func anAcceptPolicyOfNeverStoresNothing() async throws {
    let client = client { $0.httpCookieAcceptPolicy = .never }
    #expect(try await cookies(after: "/cookies/set?flavour=oatmeal", through: client) == [:])
    #expect(client.configuration.sessionConfiguration.httpCookieStorage?.cookies?.isEmpty == true)
  }

  @Test func cookiesAreStoredButNotSentWhenTheSessionSaysSo() async throws {
    let client = client { $0.httpShouldSetCookies = false }
    #expect(try await cookies(after: "/cookies/set?flavour=oatmeal", through: client) == [:])
    let stored = client.configuration.sessionConfiguration.httpCookieStorage?.cookies ?? []
    #expect(stored.map(\.name) == ["flavour"])
  }

  @Test func theClientStoresCookiesInURLSessionsPlaceOnLinux() {
    let client = client()
    #expect(
      client.configuration.sessionConfiguration.httpCookieAcceptPolicy
        == .onlyFromMainDocumentDomain
    )
    #if canImport(FoundationNetworking)
      // URLSession's own per-line cookie parsing is off; the client's jar does the storing.
      #expect(client.session.configuration.httpCookieAcceptPolicy == .never)
      #expect(client.cookies != nil)
    #else
      #expect(client.cookies == nil)
    #endif
  }

  @Test func joinedSetCookieFieldsSplitOnlyWhereANewCookieStarts() {
    let joined =
      "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/, b=two; Path=/x,c=3"
    let cookies = CookieJar.splitCookies(joined).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(
      cookies == ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/", "b=two; Path=/x", "c=3"])
    #expect(CookieJar.splitCookies("solo=1").map(String.init) == ["solo=1"])
  }

  @Test func cookiesExpiredByMaxAgeOrAPastDateAreNamed() {
    let now = Date(timeIntervalSince1970: 2_000_000_000)
    let value =
      "a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/, b=; Max-Age=0, "
      + "c=live; Max-Age=60, d=old; expires=Thu, 01-Jan-1970 00:00:01 GMT, "
      + "e=future; Expires=Wed, 21 Oct 2037 07:28:00 GMT, f=x; max-age=-1"
    #expect(CookieJar.expiredNames(in: value, now: now) == ["a", "b", "d", "f"])
    #expect(CookieJar.expiredNames(in: "g=1; Expires=not a date", now: now).isEmpty)
  }
}
