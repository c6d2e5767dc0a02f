import Foundation

/// Everything, in one run, then the table.
func runSuite(options: Options, base: URL) async throws {
  let loadBefore = loadAverage()
  let clock = ContinuousClock()
  let start = clock.now
  // Alone, the curl comparison and the load run measure EndpointCurl against several references.
  let sdkSections: Set<String> = ["throughput", "memory", "diagnosis"]
  var report =
    options.only.isDisjoint(with: sdkSections) && options.only.contains("curl")
    ? Report(client: "EndpointCurl", reference: "reference", ratio: "ratio") : Report()
  var notes: [String] = []

  if options.only.contains("throughput") {
    log(
      "throughput: \(options.rounds) rounds, \(options.window) s windows, "
        + "\(options.connections) connections per host"
    )
    let comparisons = await runThroughput(options: options, base: base)
    report.addThroughput(comparisons)
    for comparison in comparisons where comparison.failures > 0 {
      notes.append(
        "\(comparison.name): \(comparison.failures) failed requests, first: "
          + (comparison.firstFailure ?? "?")
      )
    }
  }

  if options.only.contains("memory") {
    log("memory: one child process per measurement")
    let idle = try spawnChild("idle", options: options)
    let sdkDownload = try spawnChild("sdk-download", options: options)
    let rawDownload = try spawnChild("raw-download", options: options)
    let sdkStream = try spawnChild("sdk-stream", options: options)
    let rawData = try spawnChild("raw-data", options: options)
    let limit = 40.0
    for (name, fields) in [
      ("sdk-download", sdkDownload), ("raw-download", rawDownload),
      ("sdk-stream", sdkStream), ("raw-data", rawData),
    ]
    where fields["bytes"] != "52428800" {
      notes.append("\(name) received \(fields["bytes"] ?? "?") bytes, not 52428800")
    }
    report.add(
      "peak RSS, process floor (client + one JSON call)",
      sdk: formatMB(megabytes(idle, "hwm_kb")),
      raw: ""
    )
    let download = megabytes(sdkDownload, "hwm_kb")
    let rawDownloadMB = megabytes(rawDownload, "hwm_kb")
    report.add(
      "peak RSS, 50 MiB download to file",
      sdk: formatMB(download),
      raw: formatMB(rawDownloadMB) + " (`download(for:)`)",
      ratio: download.flatMap { sdk in rawDownloadMB.map { format(sdk / $0, digits: 2) + "×" } }
        ?? "",
      target: "≤ 40 MiB",
      met: download.map { $0 <= limit } ?? false
    )
    let stream = megabytes(sdkStream, "hwm_kb")
    report.add(
      "peak RSS, 50 MiB streamed (chunks read and dropped)",
      sdk: formatMB(stream) + " (\(sdkStream["chunks"] ?? "?") chunks)",
      raw: formatMB(megabytes(rawData, "hwm_kb")) + " (`data(for:)`, for reference)",
      target: "≤ 40 MiB",
      met: stream.map { $0 <= limit } ?? false
    )
    report.add(
      "seconds, 50 MiB download / stream",
      sdk: "\(format(Double(sdkDownload["seconds"] ?? "") ?? .nan, digits: 2)) / "
        + format(Double(sdkStream["seconds"] ?? "") ?? .nan, digits: 2),
      raw: format(Double(rawDownload["seconds"] ?? "") ?? .nan, digits: 2) + " (download)"
    )
  }

  var curlTable: String?
  if options.only.contains("curl") {
    log(
      "curl comparison: \(options.rounds) rounds, \(options.window) s windows, in flight "
        + options.curlInFlight.map(String.init).joined(separator: ",")
    )
    let comparison = try await runCurlComparison(options: options, base: base)
    curlTable = comparison.table
    notes += comparison.failures
    let clean = comparison.failures.isEmpty
    for (concurrency, label, minimum, over) in [
      (8, "8 in flight", 8.0, "raw URLSession"), (8, "8 in flight", 0.9, "curl tool"),
      (1, "sequential", 2.5, "raw URLSession"),
    ] {
      let isTool = over == "curl tool"
      let reference = (isTool ? comparison.tool : comparison.raw)[concurrency] ?? .nan
      if isTool {
        // The curl tool fetches bytes and decodes nothing: the target compares equal work, and
        // the decoding client is shown beside it.
        if let bytes = comparison.bytesOverTool[concurrency] {
          report.add(
            "req/s, \(label), EndpointCurl returning the bytes (the tool's work) vs \(over)",
            sdk: format(comparison.endpointCurlBytes[concurrency] ?? .nan, digits: 0),
            raw: format(reference, digits: 0) + " (\(over))",
            ratio: format(bytes, digits: 2) + "×",
            target: "≥ \(format(minimum, digits: 1))×",
            met: bytes >= minimum && clean
          )
        }
        if let decoding = comparison.overTool[concurrency] {
          report.add(
            "req/s, \(label), EndpointCurl decoding JSON vs \(over) (which decodes nothing)",
            sdk: format(comparison.endpointCurl[concurrency] ?? .nan, digits: 0),
            raw: format(reference, digits: 0) + " (\(over))",
            ratio: format(decoding, digits: 2) + "×",
            target: "(for reference)"
          )
        }
        continue
      }
      guard let ratio = comparison.overRaw[concurrency] else { continue }
      report.add(
        "req/s, \(label), EndpointCurl vs \(over)",
        sdk: format(comparison.endpointCurl[concurrency] ?? .nan, digits: 0),
        raw: format(reference, digits: 0) + " (\(over))",
        ratio: format(ratio, digits: 2) + "×",
        target: "≥ \(format(minimum, digits: 1))×",
        met: ratio >= minimum && clean
      )
    }
  }

  if options.only.contains("load") {
    log(
      "load: \(options.load) requests through \(options.loadClient), \(options.loadInFlight) in "
        + "flight, in a child process"
    )
    let load = try spawnChild("load", options: options)
    let failures = Int(load["failures"] ?? "") ?? -1
    report.add(
      "load (\(options.loadClient)) \(options.load) req @ \(options.loadInFlight) in flight: "
        + "failures",
      sdk: String(failures),
      raw: "",
      target: "0",
      met: failures == 0
    )
    let warm = megabytes(load, "rss_warmup_kb")
    let end = megabytes(load, "rss_kb")
    let growth = warm.flatMap { warm in end.map { $0 / warm } }
    report.add(
      "load: RSS after \(options.loadWarmup) → after \(options.load)",
      sdk: "\(formatMB(warm)) → \(formatMB(end))",
      raw: "",
      ratio: growth.map { format($0, digits: 3) + "×" } ?? "n/a",
      target: "≤ 1.10×",
      met: growth.map { $0 <= 1.1 } ?? false
    )
    report.add(
      "load: req/s after the first \(options.loadWarmup)",
      sdk: format(Double(load["rest_rps"] ?? "") ?? .nan, digits: 0),
      raw: ""
    )
    if let series = load["rss_series_kb"] {
      let steps = series.split(separator: ",").compactMap { Double($0) }
        .map { format($0 / 1024, digits: 1) }
      notes.append(
        "load: RSS (MiB) after each \(options.loadWarmup) requests: "
          + steps.joined(separator: ", ")
      )
    }
    if let series = load["heap_series_kb"] {
      let steps = series.split(separator: ",").compactMap { Double($0) }
        .map { format($0 / 1024, digits: 1) }
      notes.append(
        "load: malloc heap in use (MiB, all threads' arenas) after each \(options.loadWarmup) "
          + "requests: " + steps.joined(separator: ", ")
      )
    }
    if let failure = load["first_failure"] {
      notes.append("load: first failure: \(failure)")
    }
  }

  var firstTable: String?
  if options.only.contains("first") {
    log("first request: \(options.firstRuns) process runs per contender, interleaved")
    let first = try runFirstRequest(options: options, base: base)
    firstTable = first.table
    notes += first.failures
  }

  var httpsTable: String?
  if options.only.contains("https") {
    log(
      "https: \(options.rounds) rounds, \(options.window) s windows, in flight "
        + options.curlInFlight.map(String.init).joined(separator: ",")
    )
    let https = try await runHTTPSComparison(options: options, base: base)
    httpsTable = https.table
    notes += https.failures
  }

  var largeTable: String?
  if options.only.contains("large") {
    log("large bodies: \(options.rounds) rounds of one process per client and operation")
    let large = try runLargeBodies(options: options, base: base)
    largeTable = large.table
    notes += large.failures
  }

  var diagnosis: String?
  if options.only.contains("cache") {
    log("cache: \(options.rounds) rounds, \(options.window) s windows, sequential")
    report.addCache(try await runCacheBenchmark(options: options, base: base))
  }

  if options.only.contains("diagnosis") {
    log("diagnosis: \(options.diagnosisRounds) rounds of \(options.diagnosisClients.count) clients")
    diagnosis = try await runDiagnosis(options: options, base: base)
  }

  let seconds = (clock.now - start).seconds
  if report.hasMeasurements {
    print(report.markdown)
    print("")
  }
  var context = [String]()
  if !options.only.isDisjoint(with: ["throughput", "diagnosis", "curl"]) {
    context.append(
      "Rounds: \(options.rounds) interleaved (diagnosis: \(options.diagnosisRounds)) × "
        + "\(options.window) s windows; medians (ratio: median of per-round ratios, min–max in "
        + "brackets). "
        + (options.only.isDisjoint(with: ["throughput", "diagnosis"])
          ? "\(options.curlConnections) connections per host for the Swift clients."
          : "\(options.connections) connections per host for every client"
            + (options.only.contains("curl")
              ? " (\(options.curlConnections) in the curl comparison)." : "."))
    )
  }
  context.append(
    "Load average \(loadBefore) before, \(loadAverage()) after; "
      + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs; \(format(seconds, digits: 0)) s."
  )
  print(context.joined(separator: " "))
  for note in notes { print("- " + note) }
  if report.hasMeasurements {
    print(report.allMet ? "All targets met." : "Some targets are not met.")
  }
  if let curlTable {
    print("")
    print("EndpointCurl, the URLSession client, raw URLSession and the curl tool (medians):")
    print("")
    print(curlTable)
  }
  if let firstTable {
    print("")
    print("The first request: process start to first response (medians):")
    print("")
    print(firstTable)
  }
  if let httpsTable {
    print("")
    print("EndpointCurl and the curl tool over HTTPS and HTTP/2 (medians):")
    print("")
    print(httpsTable)
  }
  if let largeTable {
    print("")
    print("Large bodies: both clients and the curl tool (medians):")
    print("")
    print(largeTable)
  }
  if let diagnosis {
    print("")
    print("Where the time goes: each client adds one thing to the one above it (medians).")
    print("")
    print(diagnosis)
  }
}
