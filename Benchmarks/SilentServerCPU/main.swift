// What a request to a server that accepts and never answers costs in CPU while it waits: the
// curl client, the URLSession client, and a bare URLSession (the baseline), each in a process of
// its own, one request with a 10 s limit (`--wait`), the CPU time the process used across the
// wait read from getrusage. Run it through scripts/bench-silent-cpu.sh, which starts the silent
// server on 127.0.0.1 and stops it.
//
//   SilentServerCPU --url URL [--wait SECONDS]        runs the three children, prints the table
//   SilentServerCPU --child NAME --url URL --wait S   one client's measurement: `RESULT cpu=… wall=…`

import EndpointCurl
import EndpointTransport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The process's user plus system CPU time so far, in seconds.
func cpuSeconds() -> Double {
  var usage = rusage()
  #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return user + system
}

func value(of flag: String) -> String? {
  let arguments = CommandLine.arguments
  guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

/// Sends one request that waits `wait` seconds for a server that never answers; the request
/// must fail, and only the CPU spent waiting is reported.
func measure(_ name: String, url: URL, wait: Double) async throws -> (cpu: Double, wall: Double) {
  let clock = ContinuousClock()
  let limit = Duration.milliseconds(Int(wait * 1000))
  func timed(_ body: () async throws -> Void) async throws -> (cpu: Double, wall: Double) {
    let cpu = cpuSeconds()
    let start = clock.now
    do {
      try await body()
    } catch {
      return (cpuSeconds() - cpu, (clock.now - start) / .seconds(1))
    }
    throw BenchmarkError(message: "\(name): the silent server answered")
  }
  switch name {
  case "bare-urlsession":
    // Foundation on Linux takes the idle limit from the session, not from the request.
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = wait
    let session = URLSession(configuration: configuration)
    let request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: wait)
    return try await timed { _ = try await session.data(for: request) }
  case "urlsession-client":
    let client = URLSessionHTTPClient()
    return try await timed {
      _ = try await client.send(HTTPRequest(method: .get, url: url, timeout: limit))
    }
  case "curl-client":
    let client = try CurlHTTPClient()
    let result = try await timed {
      _ = try await client.send(HTTPRequest(method: .get, url: url, timeout: limit))
    }
    await client.shutdown()
    return result
  default:
    throw BenchmarkError(message: "unknown client \(name)")
  }
}

struct BenchmarkError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

guard let url = value(of: "--url").flatMap(URL.init(string:)) else {
  FileHandle.standardError.write(Data("usage: SilentServerCPU --url URL [--wait SECONDS]\n".utf8))
  exit(2)
}
let wait = value(of: "--wait").flatMap(Double.init) ?? 10

if let child = value(of: "--child") {
  do {
    let (cpu, wall) = try await measure(child, url: url, wait: wait)
    print("RESULT cpu=\(cpu) wall=\(wall)")
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
  }
}

/// Runs one child and reads its RESULT line.
func runChild(_ name: String) throws -> (cpu: Double, wall: Double) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments = ["--child", name, "--url", url.absoluteString, "--wait", String(wait)]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  guard process.terminationStatus == 0,
    let line = output.split(separator: "\n").first(where: { $0.hasPrefix("RESULT ") })
  else { throw BenchmarkError(message: "\(name): the child failed (\(process.terminationStatus))") }
  var fields: [String: Double] = [:]
  for pair in line.dropFirst("RESULT ".count).split(separator: " ") {
    let parts = pair.split(separator: "=", maxSplits: 1)
    if parts.count == 2 { fields[String(parts[0])] = Double(parts[1]) }
  }
  return (fields["cpu"] ?? .nan, fields["wall"] ?? .nan)
}

let clients = ["bare-urlsession", "urlsession-client", "curl-client"]
var results: [String: (cpu: Double, wall: Double)] = [:]
for name in clients {
  results[name] = try runChild(name)
}
let baseline = results["bare-urlsession"]!.cpu
print("A request to a server that accepts and never answers, \(wait) s limit, one process each")
print("| client | CPU s while waiting | wall s | CPU vs bare URLSession |")
print("|---|---:|---:|---:|")
for name in clients {
  let (cpu, wall) = results[name]!
  let ratio = baseline > 0 ? String(format: "%.3f", cpu / baseline) : "n/a"
  print("| \(name) | \(String(format: "%.3f", cpu)) | \(String(format: "%.1f", wall)) | \(ratio) |")
}
