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
  /// and query as the URL holds them, percent-encoding included (`/` for an empty path; no
  /// fragment), with the path's dot segments (`.` and `..`, not their percent-encoded forms)
  /// removed as RFC 3986, section 5.2.4 removes them, as both transports do.
  ///
  /// The transports neither decode nor re-encode it, so a middleware that puts the URL in a
  /// canonical form before it signs (as SigV4 requires) signs the bytes the server reads.
  ///
  /// ```swift
  /// let url = URL(string: "https://s3.example/b/a%20b/./c/..?x=1")!
  /// let request = HTTPRequest(method: .get, url: url)
  /// request.requestTarget  // "/b/a%20b/?x=1"
  /// ```
  public var requestTarget: String {
    var path = url.path(percentEncoded: true)
    if path.isEmpty { path = "/" }
    path = Self.removingDotSegments(path)
    guard let query = url.query(percentEncoded: true) else { return path }
    return "\(path)?\(query)"
  }

  /// `path` without its `.` and `..` segments (RFC 3986, section 5.2.4); `path` itself when it
  /// has none.
  static func removingDotSegments(_ path: String) -> String {
    let dot = UInt8(ascii: ".")
    let slash = UInt8(ascii: "/")
    let bytes = Array(path.utf8)
    // A dot segment starts at the beginning or after a slash; most paths have none.
    let hasDotSegment = bytes.indices.contains { index in
      bytes[index] == dot && (index == 0 || bytes[index - 1] == slash)
        && (index + 1 == bytes.count || bytes[index + 1] == slash
          || (bytes[index + 1] == dot && (index + 2 == bytes.count || bytes[index + 2] == slash)))
    }
    guard hasDotSegment else { return path }
    var input = bytes[...]
    var output: [UInt8] = []
    func starts(with prefix: String) -> Bool { input.starts(with: prefix.utf8) }
    func isExactly(_ text: String) -> Bool { input.elementsEqual(text.utf8) }
    func dropLastSegment() {
      output.removeSubrange((output.lastIndex(of: slash) ?? 0)...)
    }
    while !input.isEmpty {
      if starts(with: "../") {
        input = input.dropFirst(3)
      } else if starts(with: "./") {
        input = input.dropFirst(2)
      } else if starts(with: "/./") {
        input = input.dropFirst(2)
      } else if isExactly("/.") {
        input = [slash][...]
      } else if starts(with: "/../") {
        input = input.dropFirst(3)
        dropLastSegment()
      } else if isExactly("/..") {
        input = [slash][...]
        dropLastSegment()
      } else if isExactly(".") || isExactly("..") {
        input = []
      } else {
        // The first segment, with its leading slash, up to the next slash.
        let start = input.startIndex
        let searchFrom = input[start] == slash ? input.index(after: start) : start
        let end = input[searchFrom...].firstIndex(of: slash) ?? input.endIndex
        output += input[start..<end]
        input = input[end...]
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}
