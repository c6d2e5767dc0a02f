import EndpointJSON
import EndpointTransport
import Foundation

/// The medians of one comparison of the SDK with raw URLSession.
struct Comparison {
  let name: String
  let concurrency: Int
  var sdk: [Sample] = []
  var raw: [Sample] = []

  var ratios: [Double] {
    zip(sdk, raw).map { $0.requestsPerSecond / $1.requestsPerSecond }
  }

  var failures: Int {
    (sdk + raw).reduce(0) { $0 + $1.failures }
  }

  var firstFailure: String? {
    (sdk + raw).lazy.compactMap(\.firstFailure).first
  }
}

/// Interleaved rounds: in each round both clients run one window at each concurrency, the order
/// alternating from round to round, so drift in the machine's load hits both alike.
func runThroughput(options: Options, base: URL) async -> [Comparison] {
  let document = base.appendingPathComponent("doc.json")
  let client = sdkClient(connections: options.connections)
  let session = rawSession(connections: options.connections)
  let sdk = sdkFetcher(client, url: document)
  let raw = rawFetcher(session, url: document)
  var comparisons = [
    Comparison(name: "sequential", concurrency: 1),
    Comparison(name: "\(options.inFlight) in flight", concurrency: options.inFlight),
  ]
  // Opens the connections and warms lazy initialisation, caches and the allocator.
  for fetcher in [sdk, raw] {
    _ = await measure(fetcher, concurrency: options.inFlight, seconds: min(1, options.window))
  }
  for round in 0..<options.rounds {
    for index in comparisons.indices {
      let concurrency = comparisons[index].concurrency
      let order = round % 2 == 0 ? [sdk, raw] : [raw, sdk]
      for fetcher in order {
        let sample = await measure(fetcher, concurrency: concurrency, seconds: options.window)
        if fetcher.name == sdk.name {
          comparisons[index].sdk.append(sample)
        } else {
          comparisons[index].raw.append(sample)
        }
      }
    }
    let last = comparisons.map {
      "\($0.name) \(format($0.ratios.last ?? .nan, digits: 3))x"
    }
    log("round \(round + 1)/\(options.rounds): SDK/raw " + last.joined(separator: ", "))
  }
  return comparisons
}

/// One client alone for a while: a steady load to attach a profiler to.
func runProfile(_ which: String, options: Options, base: URL) async throws {
  let document = base.appendingPathComponent("doc.json")
  let fetcher = try makeFetcher(which, options: options, document: document)
  _ = await measure(fetcher, concurrency: options.inFlight, seconds: 0.5)
  let threadsBefore = threadTimes()
  let sample = await measure(fetcher, concurrency: options.inFlight, seconds: options.seconds)
  let threadsAfter = threadTimes()
  print(
    "\(which) at \(options.inFlight) in flight: \(format(sample.requestsPerSecond, digits: 0)) req/s, "
      + "\(format(sample.cpuMicrosPerRequest, digits: 0)) µs CPU/request, "
      + "\(format(sample.switchesPerRequest, digits: 1)) context switches/request, "
      + "\(sample.failures) failures"
  )
  // Which threads the CPU time went to, grouped by name: a loop thread near one core's worth
  // (1e6 / req/s µs per request) is the limit.
  var byName: [String: (micros: Double, threads: Int)] = [:]
  for (thread, after) in threadsAfter {
    let spent = after.micros - (threadsBefore[thread]?.micros ?? 0)
    byName[after.name, default: (0, 0)].micros += spent
    byName[after.name, default: (0, 0)].threads += 1
  }
  let budget = 1e6 / sample.requestsPerSecond
  print(
    "CPU µs/request by thread name (one core's worth per request: "
      + "\(format(budget, digits: 1)) µs):"
  )
  for (name, usage) in byName.sorted(by: { $0.value.micros > $1.value.micros })
  where usage.micros > 0 {
    let perRequest = usage.micros / Double(max(sample.requests, 1))
    print("  \(name) (\(usage.threads) threads): \(format(perRequest, digits: 1))")
  }
}

/// CPU time (user + system, µs) and name of every thread of this process, by thread id.
func threadTimes() -> [Int: (name: String, micros: Double)] {
  let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
  var result: [Int: (name: String, micros: Double)] = [:]
  let directory = "/proc/self/task"
  for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
    guard let thread = Int(entry),
      let stat = try? String(contentsOfFile: "\(directory)/\(entry)/stat", encoding: .utf8),
      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
    else { continue }
    let name = String(stat[stat.index(after: open)..<close])
    // After the name: state is field 3; utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12])
    else { continue }
    result[thread] = (name, (user + system) / ticks * 1e6)
  }
  return result
}

func log(_ message: String) {
  FileHandle.standardError.write(Data(("TransportBenchmarks: " + message + "\n").utf8))
}

func format(_ value: Double, digits: Int) -> String {
  guard value.isFinite else { return "n/a" }
  let text = String(format: "%.\(digits)f", value)
  guard digits == 0, abs(value) >= 1000 else { return text }
  // Thousands separators for readability of req/s.
  var result = ""
  for (offset, character) in text.reversed().enumerated() {
    if offset > 0, offset % 3 == 0, character != "-" { result.append(",") }
    result.append(character)
  }
  return String(result.reversed())
}
