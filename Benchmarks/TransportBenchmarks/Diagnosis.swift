import EndpointTransport
import Foundation

/// The clients that split the SDK's cost into its parts, each adding one thing to the last.
let diagnosisClients = ["raw", "delegate", "delegate-inline", "sdk-no-timeouts", "sdk"]

/// Every client `makeFetcher` knows.
let allClients = [
  "no-network", "raw", "delegate-completion", "delegate-underlying", "delegate", "delegate-inline",
  "sdk-no-timeouts",
  "sdk", "curl",
]

/// A fetcher by name: `raw`, `delegate` (raw URLSession through a session delegate),
/// `delegate-underlying`, `delegate-inline`, `delegate-completion` (see ``DelegateVariant``), `sdk`,
/// `sdk-no-timeouts` (the SDK without idle timeout and deadline, so without timers), `curl`
/// (EndpointCurl's `CurlHTTPClient` with `--curl-connections`).
func makeFetcher(_ which: String, options: Options, document: URL) throws -> Fetcher {
  switch which {
  case "raw":
    return rawFetcher(rawSession(connections: options.connections), url: document)
  case "delegate":
    return delegateFetcher(connections: options.connections, url: document, variant: .callbacks)
  case "delegate-underlying":
    return delegateFetcher(
      connections: options.connections,
      url: document,
      variant: .underlyingQueue
    )
  case "delegate-inline":
    return delegateFetcher(connections: options.connections, url: document, variant: .inline)
  case "delegate-completion":
    return delegateFetcher(
      connections: options.connections,
      url: document,
      variant: .completionHandler
    )
  case "no-network":
    // The harness alone: decodes a copy of the document held in memory.
    let data = try Data(contentsOf: document)
    let decoder = JSONDecoder()
    return Fetcher(name: "no network (harness + decoding)") {
      await Task.yield()
      blackHole(try decoder.decode(Profile.self, from: data))
    }
  case "sdk":
    return sdkFetcher(sdkClient(connections: options.connections), url: document)
  case "sdk-no-timeouts":
    let client = sdkClient(connections: options.connections, timeouts: false)
    return sdkFetcher(client, url: document, name: "SDK without timeouts")
  case "curl":
    let client = try endpointCurlClient(connections: options.curlConnections)
    return callFetcher(client, url: document, name: "EndpointCurl")
  case "curl-tls", "curl-h2":
    // EndpointCurl returning bytes over HTTPS (bench-transport.sh --tls): HTTP/1.1 or HTTP/2.
    guard let ca = options.caFile, let base = which == "curl-h2" ? options.h2Base : options.tlsBase
    else {
      throw BenchmarkFailure(description: "\(which) needs --tls-base, --h2-base and --ca")
    }
    let client = try tlsClient(
      connections: which == "curl-h2" ? 1 : options.curlConnections, ca: ca)
    return bytesFetcher(client, url: base.appendingPathComponent("doc.json"), name: which)
  default:
    throw BenchmarkFailure(
      description: "unknown client \(which); one of \(allClients.joined(separator: ", "))"
    )
  }
}

/// Interleaved rounds of every diagnosis client (order rotating each round); a table of medians
/// with ratios to raw URLSession.
func runDiagnosis(options: Options, base: URL) async throws -> String {
  let document = base.appendingPathComponent("doc.json")
  let fetchers = try options.diagnosisClients.map {
    try makeFetcher($0, options: options, document: document)
  }
  let concurrencies = [1, options.inFlight]
  var samples = [[[Sample]]](
    repeating: [[Sample]](repeating: [], count: concurrencies.count),
    count: fetchers.count
  )
  for fetcher in fetchers {
    _ = await measure(fetcher, concurrency: options.inFlight, seconds: min(1, options.window))
  }
  for round in 0..<options.diagnosisRounds {
    for (column, concurrency) in concurrencies.enumerated() {
      for offset in fetchers.indices {
        let index = (offset + round) % fetchers.count
        let sample = await measure(
          fetchers[index],
          concurrency: concurrency,
          seconds: options.window
        )
        samples[index][column].append(sample)
      }
    }
    log("diagnosis round \(round + 1)/\(options.diagnosisRounds)")
  }
  var lines = [
    "| client | seq req/s | vs raw | CPU µs/req | switches/req "
      + "| \(options.inFlight) in flight req/s | vs raw | CPU µs/req | switches/req |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ]
  for (index, fetcher) in fetchers.enumerated() {
    var cells = ["| \(fetcher.name)"]
    for column in concurrencies.indices {
      let mine = samples[index][column]
      let raw = samples[0][column]
      let ratio = median(zip(mine, raw).map { $0.requestsPerSecond / $1.requestsPerSecond })
      cells.append(format(median(mine.map(\.requestsPerSecond)), digits: 0))
      cells.append(format(ratio, digits: 3) + "×")
      cells.append(format(median(mine.map(\.cpuMicrosPerRequest)), digits: 0))
      cells.append(format(median(mine.map(\.switchesPerRequest)), digits: 1))
    }
    lines.append(cells.joined(separator: " | ") + " |")
  }
  return lines.joined(separator: "\n")
}
