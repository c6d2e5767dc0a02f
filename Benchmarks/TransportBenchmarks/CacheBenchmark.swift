import EndpointCore
import EndpointCurl
import EndpointTransport
import Foundation
import Synchronization

/// The medians of the cache comparison on one transport.
struct CacheComparison {
  let transport: String
  var network: [Sample] = []
  /// Without a cache, a new URL each time, as the misses get.
  var networkNewURLs: [Sample] = []
  var hit: [Sample] = []
  var miss: [Sample] = []

  var hitRatios: [Double] { zip(hit, network).map { $0.requestsPerSecond / $1.requestsPerSecond } }
  var missRatios: [Double] {
    zip(miss, networkNewURLs).map { $0.requestsPerSecond / $1.requestsPerSecond }
  }
}

/// Gives every response an hour of freshness, as an API's `Cache-Control` would.
private let freshForAnHour = ClosureMiddleware { request, next in
  var (response, body) = try await next(request)
  try response.headerFields.set("max-age=3600", for: "Cache-Control")
  return (response, body)
}

/// Sends a `GET` and reads its body: what every side of the comparison does.
private func getFetcher(
  _ client: some HTTPClient,
  name: String,
  url: @escaping @Sendable () -> URL
) -> Fetcher {
  Fetcher(name: name) {
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url()))
    let data = try await body.collect()
    guard response.status == 200 else {
      throw BenchmarkFailure(description: "unexpected response \(response)")
    }
    blackHole(data)
  }
}

/// Sequential `GET`s of the JSON document on each transport: a network round trip without a
/// cache, a fresh hit of ``CacheMiddleware`` and a miss through it (a new URL each time, so
/// each response is stored), in interleaved rounds.
func runCacheBenchmark(options: Options, base: URL) async throws -> [CacheComparison] {
  let document = base.appendingPathComponent("doc.json")
  let transports: [(String, any HTTPClient)] = [
    ("URLSession", sdkClient(connections: options.connections)),
    ("EndpointCurl", try endpointCurlClient(connections: options.connections)),
  ]
  var comparisons: [CacheComparison] = []
  for (name, transport) in transports {
    let client = AnyHTTPClient(transport)
    let counter = Mutex(0)
    let newURL: @Sendable () -> URL = {
      let index = counter.withLock { count in
        count += 1
        return count
      }
      return URL(string: document.absoluteString + "?n=\(index)") ?? document
    }
    let fetchers = [
      getFetcher(client, name: "network") { document },
      getFetcher(client, name: "network-new-urls", url: newURL),
      getFetcher(client.with(CacheMiddleware(), freshForAnHour), name: "hit") { document },
      getFetcher(client.with(CacheMiddleware(), freshForAnHour), name: "miss", url: newURL),
    ]
    // Opens the connection, stores the hit's response, warms the allocator.
    for fetcher in fetchers { _ = await measure(fetcher, concurrency: 1, seconds: 0.5) }
    var comparison = CacheComparison(transport: name)
    for round in 0..<options.rounds {
      let order = round % 2 == 0 ? fetchers : fetchers.reversed()
      for fetcher in order {
        let sample = await measure(fetcher, concurrency: 1, seconds: options.window)
        switch fetcher.name {
        case "network": comparison.network.append(sample)
        case "network-new-urls": comparison.networkNewURLs.append(sample)
        case "hit": comparison.hit.append(sample)
        default: comparison.miss.append(sample)
        }
      }
      log(
        "cache \(name) round \(round + 1)/\(options.rounds): hit/network "
          + "\(format(comparison.hitRatios.last ?? .nan, digits: 1))x, miss/network "
          + "\(format(comparison.missRatios.last ?? .nan, digits: 3))x")
    }
    comparisons.append(comparison)
  }
  return comparisons
}

extension Report {
  /// Two rows per transport: a fresh hit against a network round trip, and a miss through the
  /// cache against no cache.
  mutating func addCache(_ comparisons: [CacheComparison]) {
    func rate(_ samples: [Sample]) -> String {
      format(median(samples.map(\.requestsPerSecond)), digits: 0) + " req/s"
    }
    func ratio(_ ratios: [Double]) -> String {
      let spread =
        "[\(format(ratios.min() ?? .nan, digits: 2))–\(format(ratios.max() ?? .nan, digits: 2))]"
      return format(median(ratios), digits: 2) + "× " + spread
    }
    for comparison in comparisons {
      add(
        "cache, fresh hit vs network round trip, sequential (\(comparison.transport))",
        sdk: rate(comparison.hit), raw: rate(comparison.network) + " (no cache)",
        ratio: ratio(comparison.hitRatios))
      add(
        "cache, miss stored vs no cache, new URL each time, sequential "
          + "(\(comparison.transport))",
        sdk: rate(comparison.miss), raw: rate(comparison.networkNewURLs) + " (no cache)",
        ratio: ratio(comparison.missRatios))
    }
  }
}

/// Any client as a concrete type, so `with(_:)` applies to either transport.
private struct AnyHTTPClient: HTTPClient {
  let base: any HTTPClient

  init(_ base: any HTTPClient) {
    self.base = base
  }

  func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
    try await base.send(request)
  }
}
