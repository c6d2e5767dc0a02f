import EndpointCore

/// The header fields a transport puts on the wire for a request, by one rule for every client,
/// so the URLSession and curl clients send the same fields for the same request.
package enum WireFields {
  /// The SDK's version, as its default `User-Agent` names it.
  package static let sdkVersion = "0.1.0"

  /// The `User-Agent` sent when the caller sets none: `Endpoint/0.1.0`.
  package static let defaultUserAgent = "Endpoint/\(sdkVersion)"

  /// The `Accept-Encoding` both clients send on Linux when the caller sets none: the content
  /// codings the system's libcurl decodes, as its `features` bits (`curl_version_info`) say:
  /// `gzip` and `deflate`, then `br` and `zstd` where libcurl was built with them. Foundation's
  /// URLSession decodes inside that libcurl; the curl client decodes the same codings itself,
  /// with the libraries libcurl links.
  package static func acceptEncoding(libcurlFeatures features: Int32) -> String {
    contentCodings(libcurlFeatures: features).joined(separator: ", ")
  }

  /// The content codings of ``acceptEncoding(libcurlFeatures:)``, in the order they are offered.
  package static func contentCodings(libcurlFeatures features: Int32) -> [String] {
    // CURL_VERSION_BROTLI and CURL_VERSION_ZSTD of <curl/curl.h>.
    let brotli: Int32 = 1 << 23
    let zstd: Int32 = 1 << 26
    var codings = ["gzip", "deflate"]
    if features & brotli != 0 { codings.append("br") }
    if features & zstd != 0 { codings.append("zstd") }
    return codings
  }

  /// Calls `emit` once per field name of `fields`, in the order names first appear:
  /// - framing fields (`Content-Length`, `Transfer-Encoding`, `Host`, `Connection`) are left to
  ///   the transport;
  /// - repeated names become one field with the first spelling of the name and the values
  ///   joined by `, ` (`; ` for `Cookie`, RFC 6265), as RFC 9110, section 5.3 allows;
  /// - spaces and tabs around a value are not sent (a value of only those is sent empty), so
  ///   the value is the same over HTTP/1.1 and HTTP/2, which refuses a request whose value
  ///   starts or ends with whitespace (RFC 9113, section 8.2.1);
  /// - a `User-Agent` naming the SDK is added when the caller set none.
  package static func forEach(
    in fields: HTTPFields,
    acceptEncoding: String? = nil,
    _ emit: (_ name: String, _ value: String) -> Void
  ) {
    var hasUserAgent = false
    var hasAcceptEncoding = false
    for index in fields.indices {
      let name = fields[index].name
      if FieldName.isFraming(name) { continue }
      if !hasUserAgent, FieldName.equals(name, "user-agent") { hasUserAgent = true }
      if FieldName.equals(name, "accept-encoding") { hasAcceptEncoding = true }
      // A name seen before was emitted with its first occurrence.
      if fields[..<index].contains(where: { FieldName.same($0.name, name) }) { continue }
      var value = trimmed(fields[index].value)
      var later = fields.index(after: index)
      while later < fields.endIndex {
        if FieldName.same(fields[later].name, name) {
          value += (FieldName.equals(name, "cookie") ? "; " : ", ") + trimmed(fields[later].value)
        }
        later = fields.index(after: later)
      }
      // Whitespace around a value is not part of it (RFC 9110, section 5.5); an empty value is
      // sent as such (libcurl would drop a field of only whitespace instead).
      emit(name, trimmed(value))
    }
    if !hasUserAgent { emit("User-Agent", defaultUserAgent) }
    if let acceptEncoding, !hasAcceptEncoding { emit("Accept-Encoding", acceptEncoding) }
  }

  /// `value` without the spaces and tabs at its start and end.
  package static func trimmed(_ value: String) -> String {
    let bytes = value.utf8
    let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
      let last = bytes.lastIndex(where: { !isWhitespace($0) })
    else { return "" }
    if first == bytes.startIndex, last == bytes.index(before: bytes.endIndex) { return value }
    return String(value[first...last])
  }

  /// Whether a request with `method` and no body carries `Content-Length: 0`: every method
  /// but `GET` and `HEAD` (whose requests do not anticipate content), so a server that requires
  /// a length for `POST`, `PUT`, `PATCH` or `DELETE` gets one from either client.
  package static func sendsZeroLength(for method: HTTPMethod) -> Bool {
    method != .get && method != .head
  }
}
