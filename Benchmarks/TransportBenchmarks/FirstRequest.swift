import EndpointCurl
import EndpointJSON
import EndpointTransport
import Foundation

/// A child that makes one client, fetches the document once and exits: the first request of a
/// process, libcurl's loading included (`first-curl`), or of the URLSession client
/// (`first-urlsession`); `first-none` exits at once, the floor of this executable's start.
func runFirstRequestChild(_ mode: String, base: URL) async throws {
  let document = base.appendingPathComponent("doc.json")
  let endpoint = Endpoint<Data>(.get, url: document, parser: .data)
  switch mode {
  case "first-none":
    return
  case "first-curl":
    let client = try CurlHTTPClient()
    blackHole(try await client.call(endpoint))
  case "first-urlsession":
    let client = URLSessionHTTPClient()
    blackHole(try await client.call(endpoint))
  default:
    throw BenchmarkFailure(description: "unknown child mode \(mode)")
  }
}

/// Process start to first response: this executable in a `first-*` child mode against one run of
/// the curl tool fetching the same document, each spawned and timed from spawn to exit, the
/// contenders interleaved (the order rotating each run). Returns the Markdown table.
func runFirstRequest(options: Options, base: URL) throws -> (table: String, failures: [String]) {
  let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  let document = base.appendingPathComponent("doc.json")
  let tool = try CurlTool(path: options.curlTool)
  func child(_ mode: String) -> [String] {
    ["TransportBenchmarks", "--child", mode, "--base", base.absoluteString]
  }
  var contenders: [(name: String, path: String, arguments: [String])] = [
    (
      "curl tool", tool.path,
      [
        "curl", "--silent", "--show-error", "--fail", "--output", "/dev/null",
        document.absoluteString,
      ]
    )
  ]
  for (name, path) in options.firstExecutables {
    contenders.append((name, path, [name, document.absoluteString]))
    contenders.append((name + ", no request (its floor)", path, [name]))
  }
  contenders += [
    ("EndpointCurl, TransportBenchmarks", executable, child("first-curl")),
    ("URLSession client, TransportBenchmarks", executable, child("first-urlsession")),
    ("TransportBenchmarks, no request (its floor)", executable, child("first-none")),
  ]
  let toolIndex = 0
  // One unmeasured run each: the page cache holds every library afterwards.
  for contender in contenders {
    _ = try timedProcess(path: contender.path, arguments: contender.arguments)
  }
  var runs = [[ProcessRun]](repeating: [], count: contenders.count)
  for round in 0..<options.firstRuns {
    for offset in contenders.indices {
      let index = (offset + round) % contenders.count
      runs[index].append(
        try timedProcess(path: contenders[index].path, arguments: contenders[index].arguments)
      )
    }
  }
  var failures: [String] = []
  var lines = [
    "| process | median ms, spawn to exit | min–max ms | speed vs curl tool "
      + "(its time ÷ this time) | CPU ms |",
    "|---|---:|---:|---:|---:|",
  ]
  for (index, contender) in contenders.enumerated() {
    let mine = runs[index]
    if let failure = mine.lazy.compactMap(\.failure).first {
      failures.append("first request, \(contender.name): \(failure)")
    }
    let times = mine.map { $0.seconds * 1000 }
    let ratios = zip(runs[toolIndex], mine).map { $0.seconds / $1.seconds }
    let ratio =
      index == toolIndex
      ? "1×"
      : format(median(ratios), digits: 2) + "× (" + format(ratios.min() ?? .nan, digits: 2) + "–"
        + format(ratios.max() ?? .nan, digits: 2) + ")"
    lines.append(
      "| \(contender.name) | \(format(median(times), digits: 1)) "
        + "| \(format(times.min() ?? .nan, digits: 1))–\(format(times.max() ?? .nan, digits: 1)) "
        + "| \(ratio) | \(format(median(mine.map { $0.cpuMicros / 1000 }), digits: 1)) |"
    )
  }
  lines.append("")
  lines.append(
    "\(options.firstRuns) runs of each, interleaved; each Swift process makes its client and "
      + "calls an `Endpoint<Data>` of `\(document.path)` once (bytes, no decoding), then exits. "
      + "The tiny executables link only EndpointCore and the client's module (libcurl opened "
      + "when the client is made); TransportBenchmarks links Foundation and FoundationNetworking "
      + "(which loads libcurl at start). "
      + "curl tool: `\(shellCommand(contenders[toolIndex].arguments))`."
  )
  return (lines.joined(separator: "\n"), failures)
}
