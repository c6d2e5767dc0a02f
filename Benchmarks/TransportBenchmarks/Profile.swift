import EndpointJSON
import EndpointTransport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The ~300-byte JSON document nginx serves at /doc.json (written by scripts/bench-transport.sh).
struct Profile: Decodable, Sendable {
  let id: Int
  let login: String
  let name: String
  let company: String
  let blog: String
  let location: String
  let email: String
  let bio: String
  let publicRepos: Int
  let followers: Int
  let following: Int
  let siteAdmin: Bool
  let createdAt: String
  let updatedAt: String

  enum CodingKeys: String, CodingKey {
    case id, login, name, company, blog, location, email, bio, followers, following
    case publicRepos = "public_repos"
    case siteAdmin = "site_admin"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }
}

/// A response the benchmark did not expect (status or shape).
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
}

/// Keeps the optimiser from dropping a result.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// One way of fetching and decoding the JSON document.
struct Fetcher: Sendable {
  let name: String
  let fetch: @Sendable () async throws -> Void
  /// The executor the measuring tasks prefer, if any (the curl client's loop).
  var executor: (any TaskExecutor)? = nil
}

/// A session configured like the SDK's default one: ephemeral, no URL cache, the same
/// connection limit; no delegate, as a user calling `data(for:)` would make it.
func rawSession(connections: Int) -> URLSession {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.urlCache = nil
  configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
  configuration.httpMaximumConnectionsPerHost = connections
  return URLSession(configuration: configuration)
}

/// The SDK's client with its defaults, except the connection limit (and, to measure what the
/// timers cost, without timeouts).
func sdkClient(connections: Int, timeouts: Bool = true) -> URLSessionHTTPClient {
  var configuration = URLSessionHTTPClient.Configuration()
  configuration.maximumConnectionsPerHost = connections
  if !timeouts {
    configuration.idleTimeout = nil
    configuration.deadline = nil
  }
  return URLSessionHTTPClient(configuration: configuration)
}

/// `client.call(endpoint)` of an `Endpoint(json: .get, url:)`.
func sdkFetcher(_ client: URLSessionHTTPClient, url: URL, name: String = "SDK") -> Fetcher {
  let endpoint = Endpoint<Profile>(json: .get, url: url)
  return Fetcher(name: name) {
    let profile = try await client.call(endpoint)
    blackHole(profile)
  }
}

/// What a user writes by hand: `URLSession.data(for:)`, a status check, a shared `JSONDecoder`.
func rawFetcher(_ session: URLSession, url: URL) -> Fetcher {
  let decoder = JSONDecoder()
  return Fetcher(name: "raw") {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
      throw BenchmarkFailure(description: "unexpected response \(response)")
    }
    let profile = try decoder.decode(Profile.self, from: data)
    blackHole(profile)
  }
}
