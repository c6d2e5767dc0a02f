import Foundation
import Testing

/// The size limit counts decoded bytes on both clients, each in a process of its own
/// (`TransportProbe fetch --maximum-response-size`): after the failure Foundation goes on
/// decoding the rest of the body inside its libcurl, and meanwhile holds up the URLSession
/// requests of its process, which in the test process would stall other suites.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct DecodedSizeLimitProbeTests {
  /// 1,827 bytes on the wire (gzip of gzip of zeros) that decode to 1 GiB fail with
  /// `.responseTooLarge` at an 8 MiB limit, soon and without holding the gigabyte. The probe
  /// collects the body with no bound of its own, so only the client's limit can stop it.
  @Test(arguments: TransportUnderTest.allCases)
  func aNestedGzipBombFailsAtTheSizeLimit(transport: TransportUnderTest) async throws {
    let bomb = try TestServers.fault.adding("/coded?body=bomb&length=1")
    let report = try await Probe.run(
      [
        "fetch", "--client", transport.rawValue, "--url", bomb.absoluteString,
        "--maximum-response-size", "\(8 << 20)",
        "--check", TestServers.fault.adding("/echo").absoluteString,
      ],
      within: .seconds(90)
    )
    #expect(report.outcomes == ["TransportFailure.responseTooLarge": 1], "\(report.outcomes)")
    #expect(report.scenarioElapsed < 10, "the failure took \(report.scenarioElapsed) s")
    // Decoded whole, the gigabyte would pass this bound many times over.
    #expect(report.rssPeakMB < 256, "the probe's peak was \(report.rssPeakMB) MiB")
    // The next request of the same client, to another route, once the failure is thrown.
    let nextRequest = report.elapsed - report.scenarioElapsed
    guard transport == .urlSession else {
      #expect(nextRequest < 1, "the next request took \(nextRequest) s")
      return
    }
    // Foundation goes on decoding the rest of the gigabyte inside its libcurl after the
    // failure, and the next request waits for it (measured 3.7–7.3 s; listed in "The transport
    // on Linux"). Should Foundation stop decoding, this known issue no longer occurs and the
    // test fails, so the article changes.
    withKnownIssue("Foundation decodes the rest of the bomb before its next request") {
      #expect(nextRequest < 1, "the next request took \(nextRequest) s")
    }
  }
}
