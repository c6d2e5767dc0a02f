// Runs one misbehaving-server scenario against one client and prints a JSON report: the
// transport tests run it as a child process, so a wedge or a crash fails a test (by its time
// bound or its exit status) instead of stopping the whole test run.
//
//   TransportProbe abandon --client urlSession|curl --url URL --tasks N --rounds R
//       R rounds of N tasks at once, each reading one chunk of an endless body and dropping it
//   TransportProbe storm --client urlSession|curl --url URL --count N --in-flight M [--stream]
//       N requests, M at once, each cancelled after a random 0–20 ms; --stream reads the
//       body to its end (an endless body: until cancelled), otherwise the call collects it
//   TransportProbe fetch --client urlSession|curl --url URL [--environment-proxy]
//       [--maximum-response-size BYTES]
//       one GET, its outcome "status N: <body>" (or the error's kind); with
//       --environment-proxy the client may use the proxy the environment names; with
//       --maximum-response-size the client has that limit and the body is collected with no
//       bound of its own (otherwise up to 1 MiB), so only the client's limit can stop it
// All finish with one request to --check URL that must succeed (the client still works).
// Meanwhile a heartbeat task on the cooperative pool ticks every 10 ms: its longest gap shows
// whether the pool was blocked (every task of the process stopped).
// Report: {"elapsed": s, "scenarioElapsed": s (before the check), "rssStartMB", "rssEndMB",
// "rssPeakMB" (the process's peak), "poolStallMS", "outcomes": {"result": n, ...}}
import EndpointCore
import EndpointCurl
import EndpointTransport
import Foundation
import Synchronization

struct ProbeFailure: Error, CustomStringConvertible {
  let description: String
}

func argument(_ name: String) -> String? {
  let arguments = CommandLine.arguments
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
    return nil
  }
  return arguments[index + 1]
}

/// A memory figure of the process (`VmRSS:` now, `VmHWM:` its peak) in MiB.
func residentMegabytes(field: String = "VmRSS:") -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in status.split(separator: "\n") where line.hasPrefix(field) {
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
    return kilobytes / 1024
  }
  return 0
}

/// The client's response size limit (`--maximum-response-size`), if any.
func maximumResponseSize() -> Int? {
  argument("--maximum-response-size").flatMap { Int($0) }
}

func makeClient(_ name: String) throws -> any HTTPClient {
  let environmentProxy = CommandLine.arguments.contains("--environment-proxy")
  switch name {
  case "urlSession":
    var configuration = URLSessionHTTPClient.Configuration(
      idleTimeout: .seconds(30), maximumConnectionsPerHost: 16)
    configuration.allowsEnvironmentProxy = environmentProxy
    configuration.maximumResponseSize = maximumResponseSize()
    return URLSessionHTTPClient(configuration: configuration)
  case "curl":
    return try CurlHTTPClient(
      configuration: .init(
        idleTimeout: .seconds(30), maximumResponseSize: maximumResponseSize(),
        maximumConnectionsPerHost: 16, proxy: environmentProxy ? .environment : .none)
    )
  default:
    throw ProbeFailure(description: "unknown client \(name)")
  }
}

/// How one request ended, as a short name.
func outcome(of error: any Error) -> String {
  switch error {
  case is CancellationError: "cancelled"
  case let failure as TransportFailure where failure.kind == .idleTimeout: "IdleTimeout"
  case let failure as TransportFailure where failure.kind == .bufferOverflow:
    "ResponseBufferOverflow"
  case let failure as TransportFailure: "TransportFailure.\(failure.kind)"
  case let invalid as InvalidRequest: "InvalidRequest.\(invalid.kind)"
  default: "other: \(error)"
  }
}

/// One GET of `url`: its status and body as text, or the error's kind.
func fetch(_ client: any HTTPClient, url: URL) async -> [String] {
  do {
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    let limit = maximumResponseSize() == nil ? 1 << 20 : Int.max
    let text = String(decoding: try await body.collect(upTo: limit), as: UTF8.self)
    return ["status \(response.status): \(text)"]
  } catch {
    return [outcome(of: error)]
  }
}

/// Reads one chunk of an endless body and drops the rest.
func readOneChunk(_ client: any HTTPClient, _ url: URL) async -> String {
  do {
    let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
    for try await _ in body { break }
    return "result"
  } catch {
    return outcome(of: error)
  }
}

func abandon(_ client: any HTTPClient, url: URL, tasks: Int, rounds: Int) async -> [String] {
  var outcomes: [String] = []
  let start = ContinuousClock.now
  for round in 0..<rounds {
    if CommandLine.arguments.contains("--log") {
      FileHandle.standardError.write(
        Data("round \(round) at \(ContinuousClock.now - start)\n".utf8))
    }
    await withTaskGroup(of: String.self) { group in
      for _ in 0..<tasks {
        group.addTask { await readOneChunk(client, url) }
      }
      for await result in group { outcomes.append(result) }
    }
  }
  return outcomes
}

func storm(
  _ client: any HTTPClient,
  url: URL,
  count: Int,
  inFlight: Int,
  stream: Bool,
  maxDelay: Int = 20_000
) async -> [String] {
  @Sendable func once() async -> String {
    let request = Task { () async throws -> Void in
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      if stream {
        for try await _ in body {}
      } else {
        _ = try await body.collect(upTo: 1 << 20)
      }
    }
    try? await Task.sleep(for: .microseconds(Int.random(in: 0...maxDelay)))
    request.cancel()
    do {
      try await request.value
      return "result"
    } catch {
      return outcome(of: error)
    }
  }
  return await withTaskGroup(of: String.self) { group in
    var outcomes: [String] = []
    for index in 0..<count {
      if index >= inFlight, let result = await group.next() { outcomes.append(result) }
      group.addTask { await once() }
    }
    for await result in group { outcomes.append(result) }
    return outcomes
  }
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func main() async throws {
  guard CommandLine.arguments.count > 1 else {
    throw ProbeFailure(description: "usage: TransportProbe abandon|storm --client NAME --url URL")
  }
  let scenario = CommandLine.arguments[1]
  let client = try makeClient(argument("--client") ?? "urlSession")
  guard let url = argument("--url").flatMap(URL.init(string:)) else {
    throw ProbeFailure(description: "--url is required")
  }
  let start = ContinuousClock.now
  let rssStart = residentMegabytes()
  let heartbeat = Task.detached { () -> Duration in
    var last = ContinuousClock.now
    var longest = Duration.zero
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(10))
      let now = ContinuousClock.now
      longest = max(longest, now - last)
      last = now
    }
    return longest
  }
  let outcomes: [String]
  switch scenario {
  case "abandon":
    outcomes = await abandon(
      client,
      url: url,
      tasks: Int(argument("--tasks") ?? "2") ?? 2,
      rounds: Int(argument("--rounds") ?? "20") ?? 20
    )
  case "storm":
    outcomes = await storm(
      client,
      url: url,
      count: Int(argument("--count") ?? "300") ?? 300,
      inFlight: Int(argument("--in-flight") ?? "16") ?? 16,
      stream: CommandLine.arguments.contains("--stream"),
      maxDelay: Int(argument("--max-delay-us") ?? "20000") ?? 20_000
    )
  case "fetch":
    outcomes = await fetch(client, url: url)
  default:
    throw ProbeFailure(description: "unknown scenario \(scenario)")
  }
  let scenarioElapsed = ContinuousClock.now - start
  if let check = argument("--check").flatMap(URL.init(string:)) {
    _ = try await client.send(HTTPRequest(method: .get, url: check)).1.collect(upTo: 1 << 20)
  }
  let elapsed = ContinuousClock.now - start
  heartbeat.cancel()
  let stall = await heartbeat.value
  var counts: [String: Int] = [:]
  for outcome in outcomes { counts[outcome, default: 0] += 1 }
  let report: [String: Any] = [
    "elapsed": seconds(elapsed),
    "scenarioElapsed": seconds(scenarioElapsed),
    "rssStartMB": rssStart,
    "rssEndMB": residentMegabytes(),
    "rssPeakMB": residentMegabytes(field: "VmHWM:"),
    "poolStallMS": Double(stall.components.seconds) * 1000
      + Double(stall.components.attoseconds) / 1e15,
    "outcomes": counts,
  ]
  let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
  print(String(decoding: data, as: UTF8.self))
}

do {
  try await main()
} catch {
  FileHandle.standardError.write(Data("TransportProbe: \(error)\n".utf8))
  exit(2)
}
