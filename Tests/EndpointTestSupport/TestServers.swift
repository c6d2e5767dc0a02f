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

  /// httpbin over TLS (HTTP/2 and HTTP/1.1 offered by ALPN), reached as `127.0.0.1`; its
  /// certificate is issued by ``testCAPath``.
  public static var https: URL {
    get throws { try url(from: "ENDPOINT_HTTPS_URL") }
  }

  /// The same HTTPS httpbin reached as `localhost`, a name its certificate also carries.
  public static var httpsAlt: URL {
    get throws { try url(from: "ENDPOINT_HTTPS_ALT_URL") }
  }

  /// An HTTPS listener that speaks TLS 1.2 at most (HTTP/1.1 only), with a certificate for
  /// `127.0.0.1` issued by ``testCAPath``. It answers any GET with 200 and a JSON body
  /// `{"listener", "path", "tls_version"}`.
  public static var httpsTLS12Only: URL {
    get throws { try url(from: "ENDPOINT_HTTPS_TLS12_URL") }
  }

  /// An HTTPS listener on `127.0.0.1` whose certificate, issued by ``testCAPath``, names only
  /// `elsewhere.invalid`: host-name verification must refuse it.
  public static var httpsWrongName: URL {
    get throws { try url(from: "ENDPOINT_HTTPS_WRONG_NAME_URL") }
  }

  /// An HTTPS listener on `127.0.0.1` (TLS 1.2 or 1.3, HTTP/1.1) that requires a client
  /// certificate issued by ``testCAPath`` (mutual TLS). Its JSON body adds `"client"`, the
  /// certificate's common name.
  public static var httpsMutualTLS: URL {
    get throws { try url(from: "ENDPOINT_HTTPS_MTLS_URL") }
  }

  /// `Tests/Servers/h2_capture_server.py` over TLS (HTTP/2 and HTTP/1.1 offered by ALPN), with
  /// the certificate of ``https``: every request is answered with a JSON description of what the
  /// server's HTTP layer decoded (version, pseudo-header fields, field list in order, body).
  public static var h2Capture: URL {
    get throws { try url(from: "ENDPOINT_H2_CAPTURE_URL") }
  }

  /// The same capture server in cleartext (HTTP/1.1 only).
  public static var h2CapturePlain: URL {
    get throws { try url(from: "ENDPOINT_H2_CAPTURE_PLAIN_URL") }
  }

  /// The absolute path of a file made by `Tests/Servers/make_test_ca.py`, such as
  /// `client-cert.pem`, `client-key-encrypted.pem`, `other-client-cert.pem` or
  /// `server-pin.txt`.
  public static func tlsFile(_ name: String) throws -> String {
    let directory = try value(of: "ENDPOINT_TEST_TLS_DIR")
    let path = directory + "/" + name
    guard FileManager.default.isReadableFile(atPath: path) else {
      Issue.record(Comment(rawValue: "\(path) cannot be read: restart the test servers"))
      throw MissingServer(variable: "ENDPOINT_TEST_TLS_DIR")
    }
    return path
  }

  /// The text of a file made by `Tests/Servers/make_test_ca.py`, without surrounding spaces.
  public static func tlsFileText(_ name: String) throws -> String {
    let text = try String(contentsOfFile: tlsFile(name), encoding: .utf8)
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The absolute path of the PEM certificate of the throwaway authority that issued the HTTPS
  /// servers' certificates; no system trust store knows it.
  public static var testCAPath: String {
    get throws {
      let path = try value(of: "ENDPOINT_TEST_CA")
      guard FileManager.default.isReadableFile(atPath: path) else {
        Issue.record(
          Comment(
            rawValue: "ENDPOINT_TEST_CA names \(path), which cannot be read: the test servers "
              + "made it at `scripts/servers.sh start` and remove it at `stop`"
          )
        )
        throw MissingServer(variable: "ENDPOINT_TEST_CA")
      }
      return path
    }
  }

  private static func value(of name: String) throws -> String {
    guard let text = ProcessInfo.processInfo.environment[name], !text.isEmpty else {
      let message =
        "\(name) is not set: start the test servers with `scripts/servers.sh start` and "
        + "`source .test-servers/env`, or run `scripts/test.sh`"
      Issue.record(Comment(rawValue: message))
      throw MissingServer(variable: name)
    }
    return text
  }

  private static func url(from name: String) throws -> URL {
    let text = try value(of: name)
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
