import EndpointCurl
import EndpointTransport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The totals of the allocation counter that scripts/bench-allocs.sh preloads
/// (scripts/alloc-counter.c): allocating calls and bytes asked for, on every thread so far.
struct AllocationCounter {
  private typealias Counts =
    @convention(c) (
      UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt64>
    ) -> Void
  private let counts: Counts

  /// `nil` unless the counter library is loaded into this process.
  init?() {
    guard let process = dlopen(nil, RTLD_NOW),
      let symbol = dlsym(process, "endpoint_allocation_counts")
    else { return nil }
    counts = unsafeBitCast(symbol, to: Counts.self)
  }

  func read() -> (calls: UInt64, bytes: UInt64) {
    var calls: UInt64 = 0
    var bytes: UInt64 = 0
    counts(&calls, &bytes)
    return (calls, bytes)
  }
}

/// What a user writes by hand to get the bytes: `URLSession.data(for:)` and a status check.
func rawBytesFetcher(_ session: URLSession, url: URL) -> Fetcher {
  Fetcher(name: "raw URLSession, bytes") {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
      throw BenchmarkFailure(description: "unexpected response \(response)")
    }
    blackHole(data)
  }
}

/// Heap allocations per request of each client, one request at a time against the same server:
/// `--requests` requests after a warm-up, counted over the whole process (every thread), in
/// `--rounds` interleaved rounds; the table gives medians (min–max).
func runAllocations(options: Options, base: URL) async throws {
  guard let counter = AllocationCounter() else {
    throw BenchmarkFailure(
      description: "no allocation counter in this process: run scripts/bench-allocs.sh")
  }
  let document = base.appendingPathComponent("doc.json")
  let connections = options.curlConnections
  let curl = try endpointCurlClient(connections: connections)
  let sdk = sdkClient(connections: connections)
  let session = rawSession(connections: connections)
  let fetchers: [Fetcher] = [
    callFetcher(curl, url: document, name: "EndpointCurl, JSON"),
    bytesFetcher(curl, url: document, name: "EndpointCurl, bytes"),
    callFetcher(sdk, url: document, name: "URLSession client, JSON"),
    bytesFetcher(sdk, url: document, name: "URLSession client, bytes"),
    Fetcher(name: "raw URLSession, JSON", fetch: rawFetcher(session, url: document).fetch),
    rawBytesFetcher(session, url: document),
    Fetcher(
      name: "no network (harness + JSONDecoder)",
      fetch: try makeFetcher("no-network", options: options, document: document).fetch
    ),
  ]
  let requests = max(1, options.requests)
  var calls = [[Double]](repeating: [], count: fetchers.count)
  var bytes = [[Double]](repeating: [], count: fetchers.count)
  for round in 0..<options.rounds {
    for offset in fetchers.indices {
      let which = (offset + round) % fetchers.count
      let fetch = fetchers[which].fetch
      for _ in 0..<min(200, requests) { try await fetch() }
      let before = counter.read()
      for _ in 0..<requests { try await fetch() }
      let after = counter.read()
      calls[which].append(Double(after.calls - before.calls) / Double(requests))
      bytes[which].append(Double(after.bytes - before.bytes) / Double(requests))
    }
    log("allocations round \(round + 1)/\(options.rounds)")
  }
  print("| client | allocations per request | bytes allocated per request |")
  print("|---|---:|---:|")
  for (index, fetcher) in fetchers.enumerated() {
    let spread =
      format(calls[index].min() ?? .nan, digits: 1) + "–"
      + format(calls[index].max() ?? .nan, digits: 1)
    print(
      "| \(fetcher.name) | \(format(median(calls[index]), digits: 1)) (\(spread)) "
        + "| \(format(median(bytes[index]), digits: 0)) |"
    )
  }
  print("")
  print(
    "One request at a time to \(document.absoluteString) (~300 bytes of JSON), \(requests) "
      + "requests per client and round after 200 to warm up, \(options.rounds) rounds "
      + "interleaved; every allocating call of the process (malloc, calloc, realloc, the "
      + "aligned ones) on every thread, counted by scripts/alloc-counter.c (LD_PRELOAD). "
      + "Load average \(loadAverage())."
  )
}
