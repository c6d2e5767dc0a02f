import Foundation
import Testing

/// Scenarios that once wedged every task of the process or crashed it, run in a child process
/// (`TransportProbe`) with a time bound: a regression fails the test instead of the test run.
@Suite struct WedgeTests {
  /// Two tasks at a time read one chunk of an endless body and drop it. Foundation's work queue
  /// is then busy receiving for transfers whose cancellation waits for a gap in it; the client
  /// waits for it on its own threads, so the rest of the process runs on. URLSession's client is
  /// still slowed by the flood (each cancellation waits for Foundation, 0.1 s to seconds, and on
  /// a starved machine its own next requests may time out), curl's is not: fewer rounds for
  /// URLSession keep the test short.
  @Test(arguments: TransportUnderTest.allCases)
  func abandonedEndlessStreamsNeverWedgeTheProcess(transport: TransportUnderTest) async throws {
    guard transport == .urlSession else {
      try await abandonEndlessStreams(over: .curl, rounds: 20, within: .seconds(90))
      return
    }
    // Not fixed for URLSession on Linux (see "The transport on Linux"): Foundation may not take
    // a cancellation at all while dropped endless bodies flood its work queue, and the probe
    // then never ends. Declared as a known issue, not skipped: the probe still runs every
    // time, and the pool-stall and outcome checks apply whenever it finishes.
    await withKnownIssue(
      "URLSession on Linux may not take a cancellation while dropped bodies flood its queue",
      isIntermittent: true
    ) {
      try await abandonEndlessStreams(over: .urlSession, rounds: 3, within: .seconds(30))
    }
  }

  private func abandonEndlessStreams(
    over transport: TransportUnderTest,
    rounds: Int,
    within limit: Duration
  ) async throws {
    let endless = try TestServers.fault.adding("/endless")
    let report = try await Probe.run(
      [
        "abandon", "--client", transport.rawValue, "--url", endless.absoluteString,
        "--tasks", "2", "--rounds", String(rounds), "--check",
        TestServers.fault.adding("/echo").absoluteString,
      ],
      within: limit
    )
    // The cooperative pool never waits on URLSession: a task ticking every 10 ms keeps ticking.
    #expect(report.poolStallMS < 1000, "the pool stalled \(report.poolStallMS) ms")
    if transport == .curl {
      #expect(report.outcomes == ["result": 2 * rounds], "\(report.outcomes)")
      #expect(report.elapsed < 10, "took \(report.elapsed) s")
    } else {
      let known = (report.outcomes["result"] ?? 0) + (report.outcomes["IdleTimeout"] ?? 0)
      #expect(known == 2 * rounds, "\(report.outcomes)")
    }
  }

  /// Curl only: URLSession on Linux keeps receiving a dropped endless body until Foundation runs
  /// the cancellation, and its memory grows meanwhile (bounded, not with the count of streams).
  @Test func manyAbandonedStreamsKeepMemoryFlat() async throws {
    let endless = try TestServers.fault.adding("/endless")
    let report = try await Probe.run(
      [
        "abandon", "--client", "curl", "--url", endless.absoluteString,
        "--tasks", "1", "--rounds", "300",
      ],
      within: .seconds(60)
    )
    #expect(report.outcomes == ["result": 300], "\(report.outcomes)")
    // Dropped bodies stop at once: nothing keeps receiving (or buffering) them.
    #expect(
      report.rssEndMB - report.rssStartMB < 100,
      "RSS \(report.rssStartMB) → \(report.rssEndMB) MB"
    )
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aCancellationStormOnEndlessStreamsEndsWithoutSpuriousErrors(
    transport: TransportUnderTest
  ) async throws {
    guard transport == .urlSession else {
      try await cancellationStorm(over: .curl)
      return
    }
    // The same Foundation fault as above: while cancelled endless bodies still flood its work
    // queue, URLSession on Linux may hold the client's next request past its idle timeout.
    await withKnownIssue(
      "URLSession on Linux may hold a request while cancelled bodies flood its queue",
      isIntermittent: true
    ) {
      try await cancellationStorm(over: .urlSession)
    }
  }

  private func cancellationStorm(over transport: TransportUnderTest) async throws {
    let endless = try TestServers.fault.adding("/endless")
    let report = try await Probe.run(
      [
        "storm", "--client", transport.rawValue, "--url", endless.absoluteString,
        "--count", "300", "--in-flight", "16", "--stream",
        "--check", TestServers.fault.adding("/echo").absoluteString,
      ],
      within: .seconds(60)
    )
    // An endless body ends only by the cancellation: no idle timeout, no buffer overflow.
    #expect(report.outcomes == ["cancelled": 300], "\(report.outcomes)")
    #expect(report.poolStallMS < 1000, "the pool stalled \(report.poolStallMS) ms")
    #expect(
      report.rssEndMB - report.rssStartMB < 150, "RSS \(report.rssStartMB) → \(report.rssEndMB) MB")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func cancellingRequestsAlongARedirectChainNeverCrashes(transport: TransportUnderTest)
    async throws
  {
    let chain = try TestServers.fault.adding("/redirect-chain?hops=3")
    for _ in 0..<3 {
      let report = try await Probe.run(
        [
          "storm", "--client", transport.rawValue, "--url", chain.absoluteString,
          "--count", "300", "--in-flight", "16",
          "--check", TestServers.fault.adding("/echo").absoluteString,
        ],
        within: .seconds(60)
      )
      // Every request ends with its result or its cancellation, and the process lives on.
      let known = (report.outcomes["result"] ?? 0) + (report.outcomes["cancelled"] ?? 0)
      #expect(known == 300, "\(report.outcomes)")
    }
  }
}

/// Runs the `TransportProbe` executable built beside the test bundle.
enum Probe {
  struct Report {
    var elapsed: Double
    var rssStartMB: Double
    var rssEndMB: Double
    /// The longest the probe's heartbeat task on the cooperative pool waited for its turn.
    var poolStallMS: Double
    var outcomes: [String: Int]
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static var executable: URL {
    if let path = ProcessInfo.processInfo.environment["ENDPOINT_TRANSPORT_PROBE"] {
      return URL(fileURLWithPath: path)
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("TransportProbe")
  }

  /// Runs the probe with `arguments`; fails when it does not end within `limit`, or ends by a
  /// signal or with a failure status, or prints no report.
  static func run(_ arguments: [String], within limit: Duration) async throws -> Report {
    let binary = executable
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw Failure(
        description: "no TransportProbe at \(binary.path): build with swift build --build-tests"
      )
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let start = ContinuousClock.now
    while process.isRunning {
      if ContinuousClock.now - start > limit {
        process.terminate()
        try? await Task.sleep(for: .milliseconds(500))
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        throw Failure(
          description: "TransportProbe \(arguments.joined(separator: " ")) wedged: "
            + "still running after \(limit)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let problems = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(),
      as: UTF8.self
    )
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw Failure(
        description: "TransportProbe \(arguments.joined(separator: " ")) ended with "
          + "\(process.terminationReason == .exit ? "status" : "signal") "
          + "\(process.terminationStatus): \(problems.suffix(2000))"
      )
    }
    guard let line = text.split(separator: "\n").last,
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let elapsed = object["elapsed"] as? Double,
      let rssStart = object["rssStartMB"] as? Double,
      let rssEnd = object["rssEndMB"] as? Double,
      let stall = object["poolStallMS"] as? Double,
      let outcomes = object["outcomes"] as? [String: Int]
    else {
      throw Failure(description: "TransportProbe printed no report: \(text) \(problems)")
    }
    return Report(
      elapsed: elapsed,
      rssStartMB: rssStart,
      rssEndMB: rssEnd,
      poolStallMS: stall,
      outcomes: outcomes
    )
  }
}
