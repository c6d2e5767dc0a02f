#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The rules every transport applies to the URL of a request before it sends it or follows it.
package enum HTTPURL {
  /// Why `url` cannot be sent by an HTTP transport, or `nil` when it can: the SDK sends and
  /// follows `http` and `https` URLs with a host, nothing else (no `ftp:`, `file:` or `data:`).
  package static func unsendableReason(_ url: URL) -> String? {
    let scheme = url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https" else {
      let named = url.scheme.map { "the scheme is \(HTTPToken.quotedForMessage($0, limit: 20))" }
      guard let named else {
        return "only http and https URLs are sent (a relative URL needs a client with a "
          + "BaseURLMiddleware)"
      }
      return "only http and https URLs are sent (\(named))"
    }
    guard let host = url.host, !host.isEmpty else {
      return "an http or https URL needs a host"
    }
    return hostProblem(url)
  }

  /// Why the host of `url` is not one a request can reach, or `nil` when it is (or when the URL
  /// has none): a registered name of letters, digits, `-`, `.`, `_` and `~`, or an IP literal in
  /// brackets.
  package static func hostProblem(_ url: URL) -> String? {
    guard let host = url.host(percentEncoded: true), !host.isEmpty else { return nil }
    // An IPv6 literal (Foundation gives it without its brackets) may hold `:` and a zone.
    let isIPv6 = host.utf8.contains(UInt8(ascii: ":"))
    let valid = host.utf8.allSatisfy { byte in
      isHostByte(byte) || (isIPv6 && (byte == UInt8(ascii: ":") || byte == UInt8(ascii: "%")))
    }
    return valid ? nil : "the host \(HTTPToken.quotedForMessage(host)) is not a host name"
  }

  private static func isHostByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// Whether two URLs share scheme, host and port (default ports made explicit).
  package static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
    let firstScheme = first.scheme?.lowercased()
    let secondScheme = second.scheme?.lowercased()
    return firstScheme == secondScheme
      && first.host?.lowercased() == second.host?.lowercased()
      && port(of: first, scheme: firstScheme) == port(of: second, scheme: secondScheme)
  }

  private static func port(of url: URL, scheme: String?) -> Int? {
    if let port = url.port { return port }
    switch scheme {
    case "http": return 80
    case "https": return 443
    default: return nil
    }
  }
}
