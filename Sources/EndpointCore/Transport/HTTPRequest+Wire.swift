#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPRequest {
  /// The `Host` field every transport of the SDK sends for this request: the URL's host
  /// (an IPv6 literal in brackets), with `:port` unless the port is the scheme's default (80 for
  /// `http`, 443 for `https`); `nil` for a URL without a host.
  ///
  /// `Host` is a framing field: the transports write it themselves and never take it from
  /// ``headerFields``. A middleware that signs requests (AWS Signature Version 4, HTTP Message
  /// Signatures) signs this value, knowing it is the one the server receives.
  ///
  /// ```swift
  /// let url = URL(string: "http://127.0.0.1:9000/b")!
  /// let request = HTTPRequest(method: .get, url: url)
  /// request.hostField  // "127.0.0.1:9000"
  /// ```
  public var hostField: String? {
    guard var host = url.host(percentEncoded: true), !host.isEmpty else { return nil }
    if host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") { host = "[\(host)]" }
    guard let port = url.port else { return host }
    let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
    return port == defaultPort ? host : "\(host):\(port)"
  }

  /// The request target every transport of the SDK sends in the request line: the URL's path
  /// and query exactly as the URL holds them, percent-encoding included (`/` for an empty
  /// path; no fragment).
  ///
  /// The transports neither decode nor re-encode it, so a middleware that puts the URL in a
  /// canonical form before it signs (as SigV4 requires) signs the bytes the server reads.
  ///
  /// ```swift
  /// let url = URL(string: "https://s3.example/b/a%20b?x=1")!
  /// let request = HTTPRequest(method: .get, url: url)
  /// request.requestTarget  // "/b/a%20b?x=1"
  /// ```
  public var requestTarget: String {
    var path = url.path(percentEncoded: true)
    if path.isEmpty { path = "/" }
    guard let query = url.query(percentEncoded: true) else { return path }
    return "\(path)?\(query)"
  }
}
