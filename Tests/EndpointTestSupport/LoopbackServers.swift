import Foundation
import Testing

extension Tag {
  /// Suites that talk to the loopback servers of `scripts/servers.sh` through the `ENDPOINT_*`
  /// variables of `.test-servers/env`.
  @Tag public static var loopbackServers: Self
}

extension Trait where Self == ConditionTrait {
  /// Runs a suite only when the loopback test servers' environment is there.
  ///
  /// A bare `swift test` with no servers skips the suite with a message naming the command to
  /// run, instead of failing each of its tests on a missing variable. `scripts/test.sh` sets
  /// `ENDPOINT_REQUIRE_SERVERS=1`: there a missing environment fails the suite, so a skipped
  /// wire test can never pass for a tested one.
  public static var requiresLoopbackServers: Self {
    .enabled(Comment(rawValue: LoopbackServers.startHint)) {
      try LoopbackServers.available()
    }
  }
}

/// Whether the environment written by `scripts/servers.sh start` is present.
public enum LoopbackServers {
  /// Every variable `scripts/servers.sh` writes to `.test-servers/env` and the tests read.
  package static let variables = [
    "ENDPOINT_HTTPBIN_URL", "ENDPOINT_HTTPBIN_ALT_URL", "ENDPOINT_FAULT_URL",
    "ENDPOINT_HTTPS_URL", "ENDPOINT_HTTPS_ALT_URL", "ENDPOINT_HTTPS_TLS12_URL",
    "ENDPOINT_HTTPS_WRONG_NAME_URL", "ENDPOINT_HTTPS_MTLS_URL", "ENDPOINT_TEST_CA",
    "ENDPOINT_TEST_TLS_DIR", "ENDPOINT_H2_CAPTURE_URL", "ENDPOINT_H2_CAPTURE_PLAIN_URL",
  ]

  /// Set to `1` by `scripts/test.sh`: a missing server environment is then a failure, not a skip.
  static let requiredVariable = "ENDPOINT_REQUIRE_SERVERS"

  package static let startHint =
    "needs the loopback test servers: run `scripts/test.sh`, or `scripts/servers.sh start` "
    + "then `set -a; source .test-servers/env; set +a` before `swift test`"

  /// `true` when every variable is set and the servers' certificate authority still exists
  /// (`scripts/servers.sh stop` removes it, so an environment sourced before a stop reads as
  /// missing); `false` otherwise, unless the servers are required: then it throws.
  package static func available(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Bool {
    var missing = variables.filter { environment[$0]?.isEmpty ?? true }
    if let authority = environment["ENDPOINT_TEST_CA"], !authority.isEmpty,
      !FileManager.default.isReadableFile(atPath: authority)
    {
      missing.append("ENDPOINT_TEST_CA (\(authority) is gone)")
    }
    guard !missing.isEmpty else { return true }
    if environment[requiredVariable] == "1" { throw ServersMissing(missing: missing) }
    return false
  }

  /// The servers are required (`ENDPOINT_REQUIRE_SERVERS=1`) but their environment is missing.
  package struct ServersMissing: Error, CustomStringConvertible {
    package let missing: [String]
    package var description: String {
      let what =
        missing.count == variables.count
        ? "no ENDPOINT_* server variable is set" : "missing: \(missing.joined(separator: ", "))"
      return "\(requiredVariable)=1 but the test servers' environment is not there (\(what)); "
        + "the suite \(startHint)"
    }
  }
}
