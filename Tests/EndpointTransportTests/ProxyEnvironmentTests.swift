import Foundation
import Testing

/// The curl client's default proxy is none, whatever the environment says: a service's route
/// never changes because `http_proxy` is set. Run in a child process, since the variables would
/// reach every client of the test process.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ProxyEnvironmentTests {
  @Test func theCurlClientIgnoresProxyVariablesByDefault() async throws {
    let target = try TestServers.httpbin.adding("/get")
    // Nothing listens on port 9: a request sent through this proxy fails.
    let deadProxy = "http://127.0.0.1:9"
    var environment = ["no_proxy": "", "NO_PROXY": ""]
    for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
      environment[name] = deadProxy
    }
    let report = try await Probe.run(
      [
        "storm", "--client", "curl", "--url", target.absoluteString, "--count", "0",
        "--check", target.absoluteString,
      ],
      within: .seconds(60),
      environment: environment
    )
    #expect(report.outcomes.isEmpty)
  }
}
