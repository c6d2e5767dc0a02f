import EndpointCurl
import EndpointJSON
import EndpointTransport
import Foundation

/// One contender of the libcurl comparison: a Swift client measured in this process, or the
/// `curl` tool measured as a child process.
private enum Contender {
  case swift(Fetcher)
  case tool(CurlTool)

  var name: String {
    switch self {
    case .swift(let fetcher): fetcher.name
    case .tool: "curl tool"
    }
  }
}

/// The medians of the libcurl comparison, and the rows of its targets.
struct CurlComparison {
  /// The Markdown table: one row per client and concurrency.
  var table: String
  /// EndpointCurl's req/s over raw URLSession's and over the curl tool's, median of per-round
  /// ratios, by concurrency.
  var overRaw: [Int: Double]
  var overTool: [Int: Double]
  /// The same for EndpointCurl fetching the bytes without decoding them: the curl tool's work.
  var bytesOverTool: [Int: Double]
  /// Median req/s by concurrency of EndpointCurl fetching bytes.
  var endpointCurlBytes: [Int: Double]
  /// Median req/s by concurrency of EndpointCurl, raw URLSession and the curl tool.
  var endpointCurl: [Int: Double]
  var raw: [Int: Double]
  var tool: [Int: Double]
  var failures: [String]
}

/// EndpointCurl as the load run and the profile mode use it.
func endpointCurlClient(connections: Int) throws -> CurlHTTPClient {
  var configuration = CurlHTTPClient.Configuration()
  configuration.maximumConnectionsPerHost = connections
  configuration.maximumIdleConnections = max(128, connections)
  return try CurlHTTPClient(configuration: configuration)
}

/// `client.call(endpoint)` of an `Endpoint(json: .get, url:)` through any client.
func callFetcher(_ client: some HTTPClient, url: URL, name: String) -> Fetcher {
  let endpoint = Endpoint<Profile>(json: .get, url: url)
  return Fetcher(name: name) {
    let profile = try await client.call(endpoint)
    blackHole(profile)
  }
}

/// `client.call(endpoint)` of an endpoint whose parser returns the body's bytes: the transport's
/// work alone, which is what the curl tool does too.
func bytesFetcher(_ client: some HTTPClient, url: URL, name: String) -> Fetcher {
  let endpoint = Endpoint<Data>(.get, url: url, parser: .data)
  return Fetcher(name: name) {
    let data = try await client.call(endpoint)
    blackHole(data)
  }
}

/// `callFetcher` of EndpointCurl from tasks that prefer the client's loop as their executor:
/// decoding runs on the loop thread, with no hop back to the thread pool per response.
func loopFetcher(_ client: CurlHTTPClient, url: URL) -> Fetcher {
  var fetcher = callFetcher(client, url: url, name: "EndpointCurl, on its loop")
  fetcher.executor = client.executor
  return fetcher
}

/// EndpointCurl vs the URLSession client vs raw URLSession vs the curl tool: interleaved
/// rounds (the order rotating each round), every contender one window at each concurrency.
///
/// The curl tool runs a fixed number of requests per process, sized from a warm-up run so that
/// a process lasts about one window.
func runCurlComparison(options: Options, base: URL) async throws -> CurlComparison {
  let document = base.appendingPathComponent("doc.json")
  let connections = options.curlConnections
  let contenders: [Contender] = [
    .swift(
      callFetcher(
        try endpointCurlClient(connections: connections),
        url: document,
        name: "EndpointCurl"
      )
    ),
    .swift(
      callFetcher(sdkClient(connections: connections), url: document, name: "URLSession client")),
    .swift(rawFetcher(rawSession(connections: connections), url: document)),
    .tool(try CurlTool(path: options.curlTool)),
    .swift(
      bytesFetcher(
        try endpointCurlClient(connections: connections),
        url: document,
        name: "EndpointCurl, bytes"
      )
    ),
    .swift(loopFetcher(try endpointCurlClient(connections: connections), url: document)),
  ]
  let concurrencies = options.curlInFlight
  // Requests per curl process, by concurrency.
  var toolCounts: [Int: Int] = [:]
  for contender in contenders {
    for concurrency in concurrencies {
      switch contender {
      case .swift(let fetcher):
        _ = await measure(fetcher, concurrency: concurrency, seconds: min(0.5, options.window))
      case .tool(let tool):
        let sample = try tool.run(document: document, count: 5_000, concurrency: concurrency)
        guard sample.failures == 0 else {
          throw BenchmarkFailure(
            description: "the curl tool failed: \(sample.firstFailure ?? "?") "
              + "(\(tool.arguments(document: document, count: 5_000, concurrency: concurrency).joined(separator: " ")))"
          )
        }
        toolCounts[concurrency] = max(1_000, Int(sample.requestsPerSecond * options.window))
      }
    }
  }
  var samples = [[[Sample]]](
    repeating: [[Sample]](repeating: [], count: concurrencies.count),
    count: contenders.count
  )
  for round in 0..<options.rounds {
    for (column, concurrency) in concurrencies.enumerated() {
      for offset in contenders.indices {
        let index = (offset + round) % contenders.count
        let sample: Sample
        switch contenders[index] {
        case .swift(let fetcher):
          sample = await measure(fetcher, concurrency: concurrency, seconds: options.window)
        case .tool(let tool):
          sample = try tool.run(
            document: document,
            count: toolCounts[concurrency] ?? 1_000,
            concurrency: concurrency
          )
          // The warm-up's rate includes more of the process start: resize from each run.
          if sample.failures == 0 {
            toolCounts[concurrency] = max(1_000, Int(sample.requestsPerSecond * options.window))
          }
        }
        samples[index][column].append(sample)
      }
    }
    let progress = concurrencies.indices.map { column in
      let curl = samples[0][column].last?.requestsPerSecond ?? .nan
      let raw = samples[2][column].last?.requestsPerSecond ?? .nan
      let tool = samples[3][column].last?.requestsPerSecond ?? .nan
      return "\(concurrencies[column]): \(format(curl / raw, digits: 2))× raw, "
        + "\(format(curl / tool, digits: 2))× curl tool"
    }
    log(
      "curl round \(round + 1)/\(options.rounds): EndpointCurl " + progress.joined(separator: "; "))
  }

  func ratios(_ index: Int, over reference: Int, _ column: Int) -> [Double] {
    zip(samples[index][column], samples[reference][column]).map {
      $0.requestsPerSecond / $1.requestsPerSecond
    }
  }
  func cell(_ values: [Double]) -> String {
    guard values.count > 1 else { return format(median(values), digits: 2) + "×" }
    return format(median(values), digits: 2) + "× (" + format(values.min() ?? .nan, digits: 2)
      + "–" + format(values.max() ?? .nan, digits: 2) + ")"
  }
  var lines = [
    "| in flight | client | req/s | vs raw URLSession | vs curl tool | CPU µs/req "
      + "| context switches/req |",
    "|---:|---|---:|---:|---:|---:|---:|",
  ]
  var overRaw: [Int: Double] = [:]
  var overTool: [Int: Double] = [:]
  var bytesOverTool: [Int: Double] = [:]
  var endpointCurlBytes: [Int: Double] = [:]
  var endpointCurl: [Int: Double] = [:]
  var raw: [Int: Double] = [:]
  var tool: [Int: Double] = [:]
  var failures: [String] = []
  for (column, concurrency) in concurrencies.enumerated() {
    for (index, contender) in contenders.enumerated() {
      let mine = samples[index][column]
      let failed = mine.reduce(0) { $0 + $1.failures }
      if failed > 0 {
        failures.append(
          "\(contender.name), \(concurrency) in flight: \(failed) failed requests, first: "
            + (mine.lazy.compactMap(\.firstFailure).first ?? "?")
        )
      }
      let label = concurrency == 1 ? "1 (sequential)" : String(concurrency)
      lines.append(
        "| \(label) | \(contender.name) | \(format(median(mine.map(\.requestsPerSecond)), digits: 0)) "
          + "| \(index == 2 ? "1×" : cell(ratios(index, over: 2, column))) "
          + "| \(index == 3 ? "1×" : cell(ratios(index, over: 3, column))) "
          + "| \(format(median(mine.map(\.cpuMicrosPerRequest)), digits: 0)) "
          + "| \(format(median(mine.map(\.switchesPerRequest)), digits: 1)) |"
      )
    }
    endpointCurl[concurrency] = median(samples[0][column].map(\.requestsPerSecond))
    raw[concurrency] = median(samples[2][column].map(\.requestsPerSecond))
    tool[concurrency] = median(samples[3][column].map(\.requestsPerSecond))
    overRaw[concurrency] = median(ratios(0, over: 2, column))
    overTool[concurrency] = median(ratios(0, over: 3, column))
    endpointCurlBytes[concurrency] = median(samples[4][column].map(\.requestsPerSecond))
    bytesOverTool[concurrency] = median(ratios(4, over: 3, column))
  }
  let widest = concurrencies.max() ?? 1
  let example = try CurlTool(path: options.curlTool).arguments(
    document: document,
    count: toolCounts[widest] ?? 1_000,
    concurrency: widest
  )
  lines.append("")
  lines.append(
    "Every Swift client decodes the JSON (`JSONDecoder`), except \"EndpointCurl, bytes\", which "
      + "returns the body's bytes (`parser: .data`) as the curl tool does, which writes them to "
      + "/dev/null. \(connections) connections per host for the Swift clients (the curl tool opens "
      + "one per transfer in flight); the curl tool runs about one window's worth of requests per "
      + "process (sized from its previous run; last: "
      + "\(concurrencies.map { "\($0): \(toolCounts[$0] ?? 0)" }.joined(separator: ", "))), "
      + "its CPU and context switches from the child's rusage, e.g. `\(shellCommand(example))`."
  )
  return CurlComparison(
    table: lines.joined(separator: "\n"),
    overRaw: overRaw,
    overTool: overTool,
    bytesOverTool: bytesOverTool,
    endpointCurlBytes: endpointCurlBytes,
    endpointCurl: endpointCurl,
    raw: raw,
    tool: tool,
    failures: failures
  )
}

/// Arguments as one shell command line, quoted where the shell would split or glob them.
func shellCommand(_ arguments: [String]) -> String {
  arguments.map { argument in
    argument.contains(where: { " []?*$'\"".contains($0) })
      ? "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'" : argument
  }.joined(separator: " ")
}
