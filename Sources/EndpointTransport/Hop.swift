import EndpointKernel
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request body as URLSession takes it.
enum OutgoingBody: HopBody {
  case none
  case data(Data)
  case file(URL)

  var mayHaveBytes: Bool {
    switch self {
    case .none: false
    case .data(let data): !data.isEmpty
    case .file: true
    }
  }
}

/// One request on the wire: the original one, then one per redirect followed.
typealias Hop = RedirectHop<OutgoingBody>

extension Hop {
  /// The `URLRequest` for this hop, with the fields ``WireFields`` puts on the wire and without
  /// a body (the task carries the body).
  ///
  /// - Parameters:
  ///   - timeoutInterval: Foundation's timeout for the request.
  ///   - storedCookies: the `Cookie` value of the cookies the client keeps for the URL; sent
  ///     first in the one `Cookie` field, before the request's own (as libcurl's cookie engine
  ///     does in the curl client).
  func urlRequest(timeoutInterval: TimeInterval, storedCookies: String? = nil) -> URLRequest {
    var request = URLRequest(url: url)
    // GET is the default; setting it again costs a copy of Foundation's request.
    if method != .get { request.httpMethod = method.rawValue }
    request.timeoutInterval = timeoutInterval
    // Set as one dictionary: `setValue(_:forHTTPHeaderField:)` respells each name as
    // Foundation capitalises it on Linux (`x-api-key` as `X-Api-Key`, `TE` as `Te`), while the
    // dictionary keeps the caller's spelling, which the curl client sends too.
    var fields: [String: String] = [:]
    WireFields.forEach(in: headerFields, acceptEncoding: Hop.acceptEncoding) { name, value in
      fields[name] = value
    }
    if case .none = body, WireFields.sendsZeroLength(for: method) {
      // Foundation adds it only for some methods; the SDK sends it as the curl client does.
      fields["Content-Length"] = "0"
    }
    // `Cookie` is spelled so whatever the caller wrote, as libcurl spells the one field that
    // joins its engine's cookies and the caller's in the curl client.
    if let name = fields.keys.first(where: { FieldName.equals($0, "cookie") }), name != "Cookie" {
      fields["Cookie"] = fields.removeValue(forKey: name)
    }
    if let storedCookies {
      let own = fields["Cookie"].flatMap { $0.isEmpty ? nil : $0 }
      fields["Cookie"] = own.map { "\(storedCookies); \($0)" } ?? storedCookies
    }
    request.allHTTPHeaderFields = fields
    return request
  }

  /// The `Accept-Encoding` sent when the caller sets none: on Linux the codings Foundation's
  /// libcurl decodes, as the curl client offers them; on Apple platforms URLSession's own.
  #if canImport(FoundationNetworking)
    static let acceptEncoding: String? = WireFields.acceptEncoding(
      libcurlFeatures: FoundationLibcurl.features)
  #else
    static var acceptEncoding: String? { nil }
  #endif

  /// Whether URLSession refuses a URL whose host is an IPv6 literal (`http://[::1]/`): on
  /// Linux it fails such a task as an unsupported URL (`URLError` -1000) without connecting.
  #if canImport(FoundationNetworking)
    static let refusesIPv6Literals = true
  #else
    static let refusesIPv6Literals = false
  #endif

  /// The request URLSession cannot send, if this is one.
  func unsupportedReason() -> String? {
    if Self.refusesIPv6Literals, url.host(percentEncoded: true)?.contains(":") == true {
      return "URLSession on Linux cannot send to an IPv6 address literal; use CurlHTTPClient "
        + "or a host name"
    }
    if method == .get, case .data(let data) = body, !data.isEmpty {
      return "URLSession refuses a GET request with a body; use POST or another method"
    }
    if method == .get, case .file = body {
      return "URLSession refuses a GET request with a body; use POST or another method"
    }
    return nil
  }
}
