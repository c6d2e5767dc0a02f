import EndpointTestSupport
import Foundation
import Testing

/// The loopback servers' gate: a bare `swift test` skips the wire suites, `scripts/test.sh`
/// fails them, and a full environment runs them.
@Suite struct LoopbackServersGateTests {
  /// Not tagged: it runs in every `swift test`, and when the wire suites were skipped it says so
  /// once, as a warning in the run's summary, instead of the run reading as fully passed.
  @Test func aRunWithoutTheServersSaysHowToStartThem() throws {
    if try !LoopbackServers.available() {
      Issue.record(
        Comment(
          rawValue: "the suites tagged .loopbackServers were skipped; each "
            + LoopbackServers.startHint),
        severity: .warning)
    }
  }

  private func environment(authority: String) -> [String: String] {
    var environment: [String: String] = [:]
    for name in LoopbackServers.variables { environment[name] = "http://127.0.0.1:1" }
    environment["ENDPOINT_TEST_CA"] = authority
    return environment
  }

  @Test func aFullEnvironmentRunsTheSuites() throws {
    try withTemporaryDirectory { directory in
      let authority = directory.appending(path: "ca.pem")
      try Data("authority".utf8).write(to: authority)
      #expect(try LoopbackServers.available(environment: environment(authority: authority.path)))
      var required = environment(authority: authority.path)
      required["ENDPOINT_REQUIRE_SERVERS"] = "1"
      #expect(try LoopbackServers.available(environment: required))
    }
  }

  @Test func aMissingEnvironmentSkipsUnlessTheServersAreRequired() throws {
    #expect(try LoopbackServers.available(environment: [:]) == false)
    let error = #expect(throws: LoopbackServers.ServersMissing.self) {
      try LoopbackServers.available(environment: ["ENDPOINT_REQUIRE_SERVERS": "1"])
    }
    #expect(error?.missing.count == LoopbackServers.variables.count)
    #expect(error?.description.contains("scripts/servers.sh start") == true)
  }

  /// An environment sourced before `scripts/servers.sh stop` names an authority that is gone.
  @Test func anEnvironmentOfStoppedServersReadsAsMissing() throws {
    let stale = environment(authority: "/nonexistent/endpoint-tests/ca.pem")
    #expect(try LoopbackServers.available(environment: stale) == false)
    var required = stale
    required["ENDPOINT_REQUIRE_SERVERS"] = "1"
    let error = #expect(throws: LoopbackServers.ServersMissing.self) {
      try LoopbackServers.available(environment: required)
    }
    #expect(error?.missing == ["ENDPOINT_TEST_CA (/nonexistent/endpoint-tests/ca.pem is gone)"])
  }
}
