#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient {
  /// The request could not be sent or the response could not be received: the connection was
  /// refused, reset or closed early, the host was not found, TLS failed, or the answer was not
  /// valid HTTP.
  ///
  /// It names the request, says what kind of failure it was and keeps libcurl's error code and
  /// message.
  ///
  /// ```swift
  /// catch let error as CurlHTTPClient.ConnectionFailure
  ///   where error.kind == .connectionLost {
  ///   retry()
  /// }
  /// ```
  public struct ConnectionFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Kind: String, Sendable, Hashable {
      /// The connection was refused or could not be made.
      case cannotConnect
      /// The host name (or the proxy's) was not found.
      case hostNotFound
      /// The connection closed or broke before the response was complete, including a body
      /// shorter than its declared `Content-Length`.
      case connectionLost
      /// The answer was not valid HTTP: not an HTTP response, conflicting `Content-Length`
      /// fields, a body that does not match its `Content-Encoding`.
      case invalidResponse
      /// The TLS handshake or the server's certificate failed, or the CA bundle could not be
      /// read; the server's public key matched none of the pinned keys; the server refused the
      /// client certificate (or its absence). Under TLS 1.3 a server gives that refusal after
      /// the handshake, and its alert may be lost as it closes the connection: a new https
      /// connection closed after a completed handshake and before any answer counts as such a
      /// refusal too.
      case tls
      /// The proxy refused or failed the connection.
      case proxy
      /// libcurl's own timeout (not the SDK's idle timeout or deadline) expired.
      case timedOut
      /// Anything else; see CurlHTTPClient/ConnectionFailure/curlCode.
      case other
    }

    /// The request's method.
    public let method: HTTPMethod
    /// The URL being fetched when the connection failed.
    public let url: URL
    /// What kind of failure it was.
    public let kind: Kind
    /// libcurl's `CURLcode`, such as 7 (could not connect); 0 when the SDK found the problem.
    public let curlCode: Int
    /// libcurl's message, or the SDK's, such as "Failed to connect to 127.0.0.1 port 9".
    public let detail: String

    /// Creates the error.
    public init(method: HTTPMethod, url: URL, kind: Kind, curlCode: Int, detail: String) {
      self.method = method
      self.url = url
      self.kind = kind
      self.curlCode = curlCode
      self.detail = detail
    }

    /// A sentence naming the request, what failed and libcurl's message.
    public var description: String {
      let code = curlCode == 0 ? "" : "curl error \(curlCode): "
      // libcurl's message may name the URL or the proxy it was given.
      let shown = Redaction.standard.apply(toText: detail)
      return "\(method) \(URLRedaction.redacted(url)): \(kind.explanation) (\(code)\(shown))"
    }
  }
}

extension CurlHTTPClient.ConnectionFailure: CustomReflectable {
  /// The stored properties with the URL and libcurl's message shown as ``description`` shows them,
  /// for `dump(_:)`, LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "kind": kind,
        "curlCode": curlCode,
        "detail": Redaction.standard.apply(toText: detail),
      ])
  }
}

extension CurlHTTPClient.ConnectionFailure.Kind {
  var explanation: String {
    switch self {
    case .cannotConnect: "could not connect to the host"
    case .hostNotFound: "the host name was not found"
    case .connectionLost: "the connection was lost before the response was complete"
    case .invalidResponse: "the server's response is not valid HTTP"
    case .tls: "the secure connection failed"
    case .proxy: "the proxy failed"
    case .timedOut: "the connection timed out"
    case .other: "the transfer failed"
    }
  }
}
