import Foundation
import Testing

/// The loopback test servers started by `scripts/servers.sh`, read from the environment.
///
/// A missing variable fails the test with a message saying how to start the servers: a test
/// that cannot reach its server must never pass silently.
public enum TestServers {
  /// httpbin, reached as `127.0.0.1`.
  public static var httpbin: URL {
    get throws { try url(from: "ENDPOINT_HTTPBIN_URL") }
  }

  /// The same httpbin reached as `localhost`: another origin.
  public static var httpbinAlt: URL {
    get throws { try url(from: "ENDPOINT_HTTPBIN_ALT_URL") }
  }

  /// The project's fault server.
  public static var fault: URL {
    get throws { try url(from: "ENDPOINT_FAULT_URL") }
  }

  private static func url(from name: String) throws -> URL {
    guard let text = ProcessInfo.processInfo.environment[name], !text.isEmpty else {
      let message =
        "\(name) is not set: start the test servers with `scripts/servers.sh start` and "
        + "`source .test-servers/env`, or run `scripts/test.sh`"
      Issue.record(Comment(rawValue: message))
      throw MissingServer(variable: name)
    }
    guard let url = URL(string: text) else {
      Issue.record(Comment(rawValue: "\(name) is not a URL: \(text)"))
      throw MissingServer(variable: name)
    }
    return url
  }

  /// A server variable is missing or is not a URL.
  public struct MissingServer: Error, CustomStringConvertible {
    /// The environment variable.
    public let variable: String
    /// A sentence naming the variable.
    public var description: String { "test server variable \(variable) is missing or invalid" }
  }
}

extension URL {
  /// This URL with `pathAndQuery` (such as `"/get?a=1"`) appended as written.
  public func adding(_ pathAndQuery: String) -> URL {
    var text = absoluteString
    if text.hasSuffix("/") { text.removeLast() }
    // The strings in the tests are valid URL text; a typo fails the test at the request.
    return URL(string: text + pathAndQuery) ?? self
  }
}
