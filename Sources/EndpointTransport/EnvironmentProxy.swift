import Foundation

/// The proxy Foundation on Linux sends a request through without being asked: it never sets a
/// proxy on its libcurl handles, so libcurl takes one from the environment, by its own rules
/// (libcurl 7.x and 8.x): `http_proxy` for `http` URLs (never `HTTP_PROXY`), `https_proxy` or
/// `HTTPS_PROXY` for `https`, else `all_proxy` or `ALL_PROXY`; none when the variable is empty
/// or when `no_proxy` (else `NO_PROXY`) names the host.
///
/// Foundation offers no way to turn this off (its `connectionProxyDictionary` is ignored on
/// Linux), so ``URLSessionHTTPClient`` refuses such a request unless its configuration allows
/// the environment's proxy.
enum EnvironmentProxy {
  /// The name of the variable whose proxy libcurl would use for `url`, or `nil` when it would
  /// connect directly. `lookup` reads a variable (the process environment by default).
  static func variable(
    for url: URL,
    lookup: (String) -> String? = EnvironmentProxy.environmentValue
  ) -> String? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host(percentEncoded: false),
      !host.isEmpty
    else { return nil }
    if let noProxy = lookup("no_proxy") ?? lookup("NO_PROXY"), bypasses(host, noProxy) {
      return nil
    }
    let own = "\(scheme)_proxy"
    var candidates = [own]
    // libcurl never reads HTTP_PROXY: a CGI program gets the client's `Proxy:` field there.
    if own != "http_proxy" { candidates.append(own.uppercased()) }
    for name in candidates {
      if let value = lookup(name) { return value.isEmpty ? nil : name }
    }
    for name in ["all_proxy", "ALL_PROXY"] {
      if let value = lookup(name) { return value.isEmpty ? nil : name }
    }
    return nil
  }

  /// Why ``URLSessionHTTPClient`` refuses to send a request for `url`, or `nil`: on Linux, the
  /// environment names a proxy for it and the configuration does not allow one.
  static func refusal(for url: URL, allowed: Bool) -> String? {
    #if canImport(FoundationNetworking)
      guard !allowed, let name = variable(for: url) else { return nil }
      return "\(name) names a proxy for this URL, and Foundation on Linux would send the request "
        + "through it (it cannot be told to ignore the variable): unset it, exempt the host in "
        + "no_proxy, set allowsEnvironmentProxy to send through the proxy, or use CurlHTTPClient"
    #else
      return nil
    #endif
  }

  /// Whether `noProxy` (libcurl's list: `*`, or names and addresses separated by commas or
  /// blanks) exempts `host`: `*`, the host itself, a domain it ends in (`example.com` or
  /// `.example.com` for `api.example.com`, never for `notexample.com`), or for an IPv4 address
  /// the address or a network holding it (`10.0.0.0/8`). Case does not matter.
  static func bypasses(_ host: String, _ noProxy: String) -> Bool {
    if noProxy.isEmpty { return false }
    if noProxy == "*" { return true }
    var name = Substring(host.lowercased())
    if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
    if name.hasSuffix(".") { name = name.dropLast() }
    let address = IPv4Address(name)
    for entry in noProxy.lowercased().split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }
    ) {
      if let address {
        if address.isIn(entry) { return true }
        continue
      }
      var token = entry
      if token.hasSuffix(".") { token = token.dropLast() }
      if token.hasPrefix(".") { token = token.dropFirst() }
      if token.isEmpty { continue }
      if token == name { return true }
      if name.count > token.count, name.hasSuffix(token),
        name.dropLast(token.count).last == "."
      {
        return true
      }
    }
    return false
  }

  /// A variable of the process environment, as libcurl reads it.
  static func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}

/// An IPv4 address, for `no_proxy`'s address and network entries.
private struct IPv4Address {
  let value: UInt32

  init?(_ text: Substring) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var value: UInt32 = 0
    for part in parts {
      guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII),
        let byte = UInt8(part)
      else { return nil }
      value = value << 8 | UInt32(byte)
    }
    self.value = value
  }

  /// Whether `entry`, `10.0.0.0/8` or a plain address (a network of one, as libcurl reads a
  /// missing or invalid prefix length), holds this address.
  func isIn(_ entry: Substring) -> Bool {
    let parts = entry.split(separator: "/", maxSplits: 1)
    guard let base = parts.first.flatMap(IPv4Address.init) else { return false }
    var bits = 32
    if parts.count == 2, let prefix = Int(parts[1]), (1...32).contains(prefix) { bits = prefix }
    let mask: UInt32 = bits == 32 ? .max : ~(UInt32.max >> UInt32(bits))
    return value & mask == base.value & mask
  }
}
