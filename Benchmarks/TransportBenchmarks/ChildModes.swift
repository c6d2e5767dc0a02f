import EndpointJSON
import EndpointTransport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The measurements that need a fresh process: peak RSS (VmHWM only grows) and the load run.
///
/// Each prints one `RESULT key=value ...` line for the parent to read.
func runChild(_ mode: String, options: Options, base: URL) async throws {
  if mode.hasPrefix("first-") {
    try await runFirstRequestChild(mode, base: base)
    return
  }
  if mode.hasPrefix("large-") {
    try await runLargeBodyChild(mode, options: options, base: base)
    return
  }
  let document = base.appendingPathComponent("doc.json")
  let large = base.appendingPathComponent("large.bin")
  let destination = options.scratch.appendingPathComponent("download-\(getpid()).bin")
  defer { try? FileManager.default.removeItem(at: destination) }
  let clock = ContinuousClock()
  let start = clock.now
  var bytes: Int64 = 0
  var extra: [String: String] = [:]
  switch mode {
  case "idle":
    // The floor: a process that made a client and one JSON call.
    let client = sdkClient(connections: options.connections)
    try await sdkFetcher(client, url: document).fetch()
  case "sdk-download":
    let client = sdkClient(connections: options.connections)
    let response = try await client.download(
      HTTPRequest(method: .get, url: large),
      to: destination
    )
    guard response.status == 200 else {
      throw BenchmarkFailure(description: "download answered \(response.status)")
    }
    bytes = try fileSize(destination)
  case "sdk-stream":
    let client = sdkClient(connections: options.connections)
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: large))
    guard response.status == 200 else {
      throw BenchmarkFailure(description: "stream answered \(response.status)")
    }
    var chunks = 0
    for try await chunk in body {
      bytes += Int64(chunk.count)
      chunks += 1
    }
    extra["chunks"] = String(chunks)
  case "raw-download":
    let session = rawSession(connections: options.connections)
    let (file, response) = try await session.download(for: URLRequest(url: large))
    defer { try? FileManager.default.removeItem(at: file) }
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw BenchmarkFailure(description: "raw download answered \(response)")
    }
    bytes = try fileSize(file)
  case "raw-data":
    let session = rawSession(connections: options.connections)
    let (data, _) = try await session.data(for: URLRequest(url: large))
    bytes = Int64(data.count)
  case "load":
    try await runLoad(options: options, document: document, extra: &extra)
  default:
    throw BenchmarkFailure(description: "unknown child mode \(mode)")
  }
  let seconds = (clock.now - start).seconds
  var fields = extra
  fields["hwm_kb"] = String(procStatusKilobytes("VmHWM") ?? -1)
  fields["rss_kb"] = String(procStatusKilobytes("VmRSS") ?? -1)
  fields["bytes"] = String(bytes)
  fields["seconds"] = String(seconds)
  let line = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  print("RESULT " + line.joined(separator: " "))
}

/// `load` requests through `loadClient` (the SDK by default), `loadInFlight` at a time, in steps of `loadWarmup`
/// requests; RSS after each step (the first step's is the reference).
private func runLoad(options: Options, document: URL, extra: inout [String: String]) async throws {
  let fetcher = try makeFetcher(options.loadClient, options: options, document: document)
  let clock = ContinuousClock()
  let step = max(1, min(options.loadWarmup, options.load))
  var done = 0
  var failures = 0
  var firstFailure: String?
  var series: [Int] = []
  var heap: [Int] = []
  var start = clock.now
  while done < options.load {
    let count = min(step, options.load - done)
    let result = await runCount(fetcher, count: count, concurrency: options.loadInFlight)
    failures += result.failures
    firstFailure = firstFailure ?? result.firstFailure
    done += count
    series.append(procStatusKilobytes("VmRSS") ?? -1)
    heap.append(heapInUseKilobytes())
    if series.count == 1 { start = clock.now }
  }
  let restSeconds = (clock.now - start).seconds
  extra["failures"] = String(failures)
  extra["rss_warmup_kb"] = String(series.first ?? -1)
  extra["rss_series_kb"] = series.map(String.init).joined(separator: ",")
  extra["heap_series_kb"] = heap.map(String.init).joined(separator: ",")
  extra["requests"] = String(options.load)
  extra["rest_rps"] = String(Double(options.load - step) / restSeconds)
  if let firstFailure {
    // Spaces would split the RESULT line.
    extra["first_failure"] = firstFailure.replacingOccurrences(of: " ", with: "_")
  }
}

private func fileSize(_ url: URL) throws -> Int64 {
  let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
  return (attributes[.size] as? NSNumber)?.int64Value ?? -1
}

/// Runs this executable again with `--child mode` and returns its `RESULT` fields.
func spawnChild(_ mode: String, options: Options) throws -> [String: String] {
  let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = ["--child", mode] + options.forwarded
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self)
  guard process.terminationStatus == 0,
    let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") })
  else {
    throw BenchmarkFailure(
      description: "child \(mode) failed (status \(process.terminationStatus)): \(text)"
    )
  }
  var fields: [String: String] = [:]
  for pair in line.dropFirst("RESULT ".count).split(separator: " ") {
    let parts = pair.split(separator: "=", maxSplits: 1)
    if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
  }
  return fields
}
