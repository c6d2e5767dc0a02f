import EndpointCurl
import EndpointJSON
import Foundation

/// One contender of a case of the HTTPS comparison.
private enum Contestant {
  case swift(Fetcher)
  case tool(CurlTool, URL)

  var name: String {
    switch self {
    case .swift(let fetcher): fetcher.name
    case .tool: "curl tool"
    }
  }
}

/// One column of the HTTPS comparison: a protocol and a concurrency, the curl tool last.
private struct Case {
  let label: String
  let concurrency: Int
  let contestants: [Contestant]
}

/// EndpointCurl with the test certificate authority, at most `connections` per host.
func tlsClient(connections: Int, ca: String) throws -> CurlHTTPClient {
  var configuration = CurlHTTPClient.Configuration()
  configuration.maximumConnectionsPerHost = connections
  configuration.maximumIdleConnections = max(128, connections)
  configuration.tls = .init(caBundlePath: ca, requiresTLS13: true)
  return try CurlHTTPClient(configuration: configuration)
}

/// EndpointCurl against the curl tool over HTTPS: HTTP/1.1 + TLS 1.3 (one connection per
/// transfer in flight, both) and HTTP/2 (one connection, multiplexed, both) at each concurrency
/// of `--curl-in-flight`, then one transfer at a time on a new connection per request (the server
/// closes each; TLS session tickets off on that server, so each is a full handshake), over HTTPS
/// and over plain HTTP: their difference is the handshake's cost. Interleaved rounds, the order
/// rotating each round; ratios are medians of per-round ratios over the curl tool.
func runHTTPSComparison(options: Options, base: URL) async throws -> (
  table: String, failures: [String]
) {
  guard let tlsBase = options.tlsBase, let h2Base = options.h2Base, let ca = options.caFile else {
    throw BenchmarkFailure(description: "--only https needs --tls-base, --h2-base and --ca")
  }
  let curlPath = try CurlTool(path: options.curlTool).path
  func tool(_ extra: [String]) throws -> CurlTool {
    var tool = try CurlTool(path: curlPath)
    tool.extra = extra
    return tool
  }
  let tls1 = try tool(["--http1.1", "--cacert", ca, "--tlsv1.3"])
  let tls2 = try tool(["--http2", "--cacert", ca, "--tlsv1.3"])
  var cases: [Case] = []
  for (label, url, connections, curlTool) in [
    ("HTTP/1.1 + TLS 1.3", tlsBase, options.curlConnections, tls1),
    ("HTTP/2 (TLS 1.3, one connection)", h2Base, 1, tls2),
  ] {
    let document = url.appendingPathComponent("doc.json")
    // One pair of clients per protocol, shared by its concurrencies (connections stay warm).
    let decoding = callFetcher(
      try tlsClient(connections: connections, ca: ca), url: document, name: "EndpointCurl")
    let bytes = bytesFetcher(
      try tlsClient(connections: connections, ca: ca), url: document, name: "EndpointCurl, bytes")
    // The bytes again from tasks that prefer the client's loop: no hop back to the pool.
    let loopClient = try tlsClient(connections: connections, ca: ca)
    var onLoop = bytesFetcher(loopClient, url: document, name: "EndpointCurl, bytes, on its loop")
    onLoop.executor = loopClient.executor
    for concurrency in options.curlInFlight {
      cases.append(
        Case(
          label: label,
          concurrency: concurrency,
          contestants: [.swift(decoding), .swift(bytes), .swift(onLoop), .tool(curlTool, document)]
        )
      )
    }
  }
  // A new connection per request: nginx closes it after each response (keepalive_timeout 0).
  for (label, url, curlTool) in [
    ("HTTP/1.1 + TLS 1.3, new connection each", tlsBase, tls1),
    ("plain HTTP/1.1, new connection each", base, try tool([])),
  ] {
    let document = url.appendingPathComponent("close/doc.json")
    let bytes = bytesFetcher(
      try tlsClient(connections: 1, ca: ca), url: document, name: "EndpointCurl, bytes")
    cases.append(
      Case(label: label, concurrency: 1, contestants: [.swift(bytes), .tool(curlTool, document)])
    )
  }

  // Warm-up; requests per curl process sized to about one window.
  var toolCounts = [Int](repeating: 1_000, count: cases.count)
  for (index, item) in cases.enumerated() {
    for contestant in item.contestants {
      switch contestant {
      case .swift(let fetcher):
        _ = await measure(fetcher, concurrency: item.concurrency, seconds: min(0.5, options.window))
      case .tool(let tool, let document):
        let sample = try tool.run(document: document, count: 500, concurrency: item.concurrency)
        guard sample.failures == 0 else {
          throw BenchmarkFailure(
            description: "the curl tool failed: \(sample.firstFailure ?? "?") ("
              + shellCommand(tool.arguments(document: document, count: 500, concurrency: 1)) + ")"
          )
        }
        toolCounts[index] = max(200, Int(sample.requestsPerSecond * options.window))
      }
    }
  }
  var samples = cases.map { [[Sample]](repeating: [], count: $0.contestants.count) }
  for round in 0..<options.rounds {
    for (index, item) in cases.enumerated() {
      for offset in item.contestants.indices {
        let which = (offset + round) % item.contestants.count
        let sample: Sample
        switch item.contestants[which] {
        case .swift(let fetcher):
          sample = await measure(fetcher, concurrency: item.concurrency, seconds: options.window)
        case .tool(let tool, let document):
          sample = try tool.run(
            document: document, count: toolCounts[index], concurrency: item.concurrency)
          if sample.failures == 0 {
            toolCounts[index] = max(200, Int(sample.requestsPerSecond * options.window))
          }
        }
        samples[index][which].append(sample)
      }
    }
    log("https round \(round + 1)/\(options.rounds)")
  }

  var failures: [String] = []
  var lines = [
    "| protocol | in flight | client | req/s | vs curl tool | CPU µs/req | context switches/req |",
    "|---|---:|---|---:|---:|---:|---:|",
  ]
  var microsPerRequest: [String: Double] = [:]
  for (index, item) in cases.enumerated() {
    let toolIndex = item.contestants.count - 1
    for (which, contestant) in item.contestants.enumerated() {
      let mine = samples[index][which]
      let failed = mine.reduce(0) { $0 + $1.failures }
      if failed > 0 {
        failures.append(
          "\(item.label), \(item.concurrency) in flight, \(contestant.name): \(failed) failed, "
            + "first: \(mine.lazy.compactMap(\.firstFailure).first ?? "?")")
      }
      let ratios = zip(mine, samples[index][toolIndex]).map {
        $0.requestsPerSecond / $1.requestsPerSecond
      }
      let ratio =
        which == toolIndex
        ? "1×"
        : format(median(ratios), digits: 2) + "× (" + format(ratios.min() ?? .nan, digits: 2)
          + "–" + format(ratios.max() ?? .nan, digits: 2) + ")"
      let rate = median(mine.map(\.requestsPerSecond))
      if item.concurrency == 1 {
        microsPerRequest["\(item.label)|\(contestant.name)"] = 1e6 / rate
      }
      lines.append(
        "| \(item.label) | \(item.concurrency) | \(contestant.name) | \(format(rate, digits: 0)) "
          + "| \(ratio) | \(format(median(mine.map(\.cpuMicrosPerRequest)), digits: 0)) "
          + "| \(format(median(mine.map(\.switchesPerRequest)), digits: 1)) |"
      )
    }
  }
  lines.append("")
  lines.append(
    "The cost of a new TLS 1.3 handshake (full, no resumption), one request at a time, µs per "
      + "request (wall time, medians): new HTTPS connection − new plain connection, and new HTTPS "
      + "connection − reused HTTPS connection."
  )
  lines.append("")
  lines.append("| client | new TLS − new TCP | new TLS − reused TLS |")
  lines.append("|---|---:|---:|")
  for name in ["EndpointCurl, bytes", "curl tool"] {
    let tlsNew = microsPerRequest["HTTP/1.1 + TLS 1.3, new connection each|\(name)"] ?? .nan
    let tcpNew = microsPerRequest["plain HTTP/1.1, new connection each|\(name)"] ?? .nan
    let reused = microsPerRequest["HTTP/1.1 + TLS 1.3|\(name)"] ?? .nan
    lines.append(
      "| \(name) | \(format(tlsNew - tcpNew, digits: 0)) µs | \(format(tlsNew - reused, digits: 0)) µs |"
    )
  }
  lines.append("")
  let example = tls2.arguments(
    document: h2Base.appendingPathComponent("doc.json"),
    count: toolCounts[options.curlInFlight.count * 2 - 1],
    concurrency: options.curlInFlight.last ?? 1
  )
  lines.append(
    "\"EndpointCurl\" decodes the JSON; \"EndpointCurl, bytes\" returns the body's bytes, the "
      + "curl tool's work; \"on its loop\" does so from tasks preferring `CurlHTTPClient.executor`. "
      + "HTTP/1.1 + TLS: \(options.curlConnections) connections per host for "
      + "EndpointCurl, the curl tool one per transfer in flight; HTTP/2: one connection for "
      + "EndpointCurl (`maximumConnectionsPerHost = 1`), the curl tool multiplexing its "
      + "`--parallel` transfers, e.g. `\(shellCommand(example))`. Rounds: \(options.rounds) × "
      + "\(options.window) s windows."
  )
  return (lines.joined(separator: "\n"), failures)
}
