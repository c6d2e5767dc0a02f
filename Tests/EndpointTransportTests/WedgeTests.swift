import Foundation
import Testing

/// Scenarios that once wedged every task of the process or crashed it, run in a child process
/// (`TransportProbe`) with a time bound: a regression fails the test instead of the test run.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct WedgeTests {
  /// Two tasks at a time read one chunk of an endless body and drop it, 20 times: done in
  /// seconds, with flat memory. Foundation's work queue is then busy receiving for transfers
  /// whose cancellation waits for a gap in it; the client waits for it on its own threads, so
  /// the rest of the process runs on.
  @Test(arguments: TransportUnderTest.allCases)
  func abandonedEndlessStreamsNeverWedgeTheProcess(transport: TransportUnderTest) async throws {
    guard transport == .urlSession else {
      try await abandonEndlessStreams(over: .curl, within: .seconds(90))
      return
    }
    // Not fixed for URLSession on Linux (see "A dropped endless body" in the URLSession on Linux
    // article): Foundation takes a cancellation, or makes the next task, only when its work
    // queue has a gap, which while a dropped body floods it comes after 0.1 s to tens of
    // seconds (20 rounds measured 39–99 s, with 300–540 MB more memory). Declared as a known
    // issue, not skipped: the same scenario and bounds as curl's run every time, and a probe
    // that has not ended after 30 s is stopped and counts as the known issue.
    await withKnownIssue(
      "URLSession on Linux may not take a cancellation while dropped bodies flood its queue",
      isIntermittent: true
    ) {
      try await abandonEndlessStreams(over: .urlSession, within: .seconds(30))
    }
  }

  private func abandonEndlessStreams(
    over transport: TransportUnderTest,
    within limit: Duration
  ) async throws {
    let endless = try TestServers.fault.adding("/endless")
    let report = try await Probe.run(
      [
        "abandon", "--client", transport.rawValue, "--url", endless.absoluteString,
        "--tasks", "2", "--rounds", "20", "--check",
        TestServers.fault.adding("/echo").absoluteString,
      ],
      within: limit
    )
    // The cooperative pool never waits on URLSession: a task ticking every 10 ms keeps ticking.
    #expect(report.poolStallMS < 1000, "the pool stalled \(report.poolStallMS) ms")
    #expect(report.outcomes == ["result": 40], "\(report.outcomes)")
    #expect(report.elapsed < 10, "took \(report.elapsed) s")
    // Dropped bodies stop at once: nothing keeps receiving (or buffering) them.
    #expect(
      report.rssEndMB - report.rssStartMB < 100,
      "RSS \(report.rssStartMB) → \(report.rssEndMB) MB"
    )
  }

  /// Curl only: URLSession on Linux keeps receiving a dropped endless body until Foundation runs
  /// the cancellation, and its memory grows meanwhile, with the bytes received (the case above).
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
    // queue, URLSession on Linux may hold the client's next request past its idle timeout
    // (measured: 2 runs in 10, the others ending in 0.2–8.6 s).
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

  /// A redirect whose body never ends is followed at once: its body is not the caller's.
  @Test(arguments: TransportUnderTest.allCases)
  func anEndlessRedirectBodyIsFollowedAtOnce(transport: TransportUnderTest) async throws {
    guard transport == .urlSession else {
      try await followEndlessRedirect(over: .curl)
      return
    }
    // Not fixed for URLSession on Linux (see "A dropped endless body" in the URLSession on Linux
    // article): Foundation keeps a redirect's body to itself and reports the redirect only once
    // that body ends, so the client sees silence until its idle timeout (30 s in the probe),
    // and the cancellation then waits behind the body Foundation is still receiving. Always
    // so: a probe that has not ended after 20 s is stopped and counts as the known issue.
    await withKnownIssue("URLSession on Linux reports a redirect only once its body ends") {
      try await followEndlessRedirect(over: .urlSession)
    }
  }

  private func followEndlessRedirect(over transport: TransportUnderTest) async throws {
    let redirect = try TestServers.fault.adding("/endless-redirect")
    let report = try await Probe.run(
      [
        "abandon", "--client", transport.rawValue, "--url", redirect.absoluteString,
        "--tasks", "1", "--rounds", "1",
        "--check", TestServers.fault.adding("/echo").absoluteString,
      ],
      within: .seconds(20)
    )
    #expect(report.outcomes == ["result": 1], "\(report.outcomes)")
    #expect(report.elapsed < 10, "took \(report.elapsed) s")
    #expect(report.poolStallMS < 1000, "the pool stalled \(report.poolStallMS) ms")
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
    /// The time before the final `--check` request.
    var scenarioElapsed: Double
    var rssStartMB: Double
    var rssEndMB: Double
    /// The probe process's peak resident memory.
    var rssPeakMB: Double
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
  /// `environment` is added to the test process's own for the probe.
  static func run(
    _ arguments: [String],
    within limit: Duration,
    environment: [String: String] = [:]
  ) async throws -> Report {
    let binary = executable
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw Failure(
        description: "no TransportProbe at \(binary.path): build with swift build --build-tests"
      )
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
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
      let scenarioElapsed = object["scenarioElapsed"] as? Double,
      let rssStart = object["rssStartMB"] as? Double,
      let rssEnd = object["rssEndMB"] as? Double,
      let rssPeak = object["rssPeakMB"] as? Double,
      let stall = object["poolStallMS"] as? Double,
      let outcomes = object["outcomes"] as? [String: Int]
    else {
      throw Failure(description: "TransportProbe printed no report: \(text) \(problems)")
    }
    return Report(
      elapsed: elapsed,
      scenarioElapsed: scenarioElapsed,
      rssStartMB: rssStart,
      rssEndMB: rssEnd,
      rssPeakMB: rssPeak,
      poolStallMS: stall,
      outcomes: outcomes
    )
  }
}
