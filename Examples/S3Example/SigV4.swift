import EndpointCore
import Foundation

/// An AWS access key: the ID names it, the secret signs with it and never travels.
struct AWSCredentials: Sendable, CustomStringConvertible {
  var accessKeyID: String
  var secretAccessKey: String
  /// The token of temporary credentials (sent as `X-Amz-Security-Token`), if any.
  var sessionToken: String?

  /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, when the first two are
  /// set.
  static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> AWSCredentials? {
    guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
      let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
    else { return nil }
    return AWSCredentials(
      accessKeyID: id, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
  }

  /// The key ID only: the secret and the token never reach a log.
  var description: String { "AWSCredentials(\(accessKeyID), secret <redacted>)" }
}

/// Signs every request with AWS Signature Version 4, as the last middleware before the transport.
///
/// It signs what it controls and what S3 requires: the `Host` the transport will send (from the
/// URL), every `x-amz-*` field, and the payload's SHA-256 in `x-amz-content-sha256`. Fields the
/// transport adds on the wire (`User-Agent`, `Content-Length`) are left unsigned, as every SigV4
/// client does. The URL's path and query are rewritten in SigV4's canonical encoding first, so
/// the bytes on the wire are the ones signed.
struct SigV4Signer: Middleware {
  static let algorithm = "AWS4-HMAC-SHA256"
  /// The hash of an empty payload.
  static let emptyPayloadHash = SHA256.hash([UInt8]()).hex
  /// What a request whose body cannot be read twice (a one-shot stream) signs instead of a hash.
  static let unsignedPayload = "UNSIGNED-PAYLOAD"

  var credentials: AWSCredentials
  var region: String
  var service = "s3"
  /// The signing time; injectable so a test can sign at a fixed instant.
  var now: @Sendable () -> Date = { Date() }

  func intercept(_ request: HTTPRequest, next: Next) async throws -> (HTTPResponse, HTTPBody) {
    var request = request
    try await sign(&request, at: now())
    return try await next(request)
  }

  /// Adds `x-amz-date`, `x-amz-content-sha256` (unless the request brings its own: a caller who
  /// already knows the hash saves reading the body twice) and `Authorization`.
  func sign(_ request: inout HTTPRequest, at date: Date) async throws {
    let stamp = SigV4Time(date)
    request.url = try Self.canonicalURL(request.url)
    let payloadHash: String
    if let given = request.headerFields["x-amz-content-sha256"] {
      payloadHash = given
    } else {
      payloadHash = try await Self.payloadHash(of: request.body)
      try request.headerFields.set(payloadHash, for: "x-amz-content-sha256")
    }
    try request.headerFields.set(stamp.dateTime, for: "x-amz-date")
    if let token = credentials.sessionToken {
      try request.headerFields.set(token, for: "x-amz-security-token")
    }
    request.headerFields.remove("Authorization")

    // The transports send exactly `hostField` and `requestTarget`: sign those.
    guard let host = request.hostField else {
      throw InvalidRequest(
        .url, reason: "a signed request needs a host", input: request.url.absoluteString,
        method: request.method, url: request.url)
    }
    var signed: [(name: String, value: String)] = [("host", host)]
    for field in request.headerFields where field.name.lowercased().hasPrefix("x-amz-") {
      signed.append((field.name.lowercased(), field.value))
    }
    let (lines, names) = Self.canonicalHeaders(signed)
    let (path, query) = Self.split(request.requestTarget)
    let canonicalRequest = [
      request.method.rawValue,
      path,
      query,
      lines,
      names,
      payloadHash,
    ].joined(separator: "\n")
    let signature = signature(of: canonicalRequest, at: stamp)
    try request.headerFields.set(
      "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(stamp)), "
        + "SignedHeaders=\(names), Signature=\(signature)",
      for: "Authorization")
  }

  /// A URL anyone can `GET` without credentials until it expires: the signature travels in the
  /// query (`X-Amz-Signature`), over the `host` field alone and an unsigned payload.
  ///
  /// - Parameters:
  ///   - url: the object's URL.
  ///   - expires: how long the URL stays valid, in seconds (at most a week for S3).
  ///   - date: the signing time.
  func presignedURL(for url: URL, method: HTTPMethod = .get, expires: Int, at date: Date)
    throws -> URL
  {
    let stamp = SigV4Time(date)
    var query = Self.queryPairs(of: url)
    query.append(("X-Amz-Algorithm", Self.algorithm))
    query.append(("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(stamp))"))
    query.append(("X-Amz-Date", stamp.dateTime))
    query.append(("X-Amz-Expires", String(expires)))
    if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
    query.append(("X-Amz-SignedHeaders", "host"))
    let unsigned = HTTPRequest(method: method, url: try Self.canonicalURL(url, query: query))
    guard let host = unsigned.hostField else {
      throw InvalidRequest(
        .url, reason: "a signed URL needs a host", input: unsigned.url.absoluteString,
        method: method, url: unsigned.url)
    }
    let (path, canonicalQuery) = Self.split(unsigned.requestTarget)
    let canonicalRequest = [
      method.rawValue,
      path,
      canonicalQuery,
      "host:\(host)\n",
      "host",
      Self.unsignedPayload,
    ].joined(separator: "\n")
    query.append(("X-Amz-Signature", signature(of: canonicalRequest, at: stamp)))
    return try Self.canonicalURL(url, query: query)
  }

  // MARK: - The parts of a signature

  private func scope(_ stamp: SigV4Time) -> String {
    "\(stamp.date)/\(region)/\(service)/aws4_request"
  }

  private func signature(of canonicalRequest: String, at stamp: SigV4Time) -> String {
    let stringToSign = [
      Self.algorithm, stamp.dateTime, scope(stamp),
      SHA256.hash(Array(canonicalRequest.utf8)).hex,
    ].joined(separator: "\n")
    var key = SHA256.hmac(key: Array("AWS4\(credentials.secretAccessKey)".utf8), stamp.date.utf8)
    for part in [region, service, "aws4_request"] {
      key = SHA256.hmac(key: key, part.utf8)
    }
    return SHA256.hmac(key: key, stringToSign.utf8).hex
  }

  /// The SHA-256 of a body: at once for bytes in memory, by reading a file body through (it can
  /// be read again when sent), `UNSIGNED-PAYLOAD` for a stream that can be read only once.
  static func payloadHash(of body: HTTPBody?) async throws -> String {
    guard let body else { return emptyPayloadHash }
    if let data = body.data { return SHA256.hash(data).hex }
    guard body.isReplayable else { return unsignedPayload }
    var hasher = SHA256()
    for try await chunk in body { hasher.update(chunk) }
    return hasher.finalize().hex
  }

  /// `name:value` lines sorted by name (repeated names joined with commas, runs of spaces made
  /// one), and the names joined by `;`.
  static func canonicalHeaders(_ fields: [(name: String, value: String)]) -> (String, String) {
    var values: [String: [String]] = [:]
    for (name, value) in fields {
      let trimmed = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
      values[name, default: []].append(trimmed)
    }
    let names = values.keys.sorted()
    let lines = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
    return (lines, names.joined(separator: ";"))
  }

  /// A request target's path and query (empty when it has none).
  private static func split(_ target: String) -> (path: String, query: String) {
    guard let mark = target.firstIndex(of: "?") else { return (target, "") }
    return (String(target[..<mark]), String(target[target.index(after: mark)...]))
  }

  // MARK: - Canonical encoding

  /// `url` with its path and query in SigV4's encoding: each path segment and each query name
  /// and value decoded, then encoded again with only `A-Z a-z 0-9 - _ . ~` left as they are;
  /// the query sorted by name, then value. Servers compare signatures over exactly this form.
  static func canonicalURL(_ url: URL, query: [(String, String)]? = nil) throws -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      throw InvalidRequest(
        .url, reason: "it cannot be split into its parts", input: url.absoluteString)
    }
    let segments = components.percentEncodedPath.split(
      separator: "/", omittingEmptySubsequences: false)
    components.percentEncodedPath = segments.map { segment in
      uriEncode(String(segment).removingPercentEncoding ?? String(segment))
    }.joined(separator: "/")
    if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
    let pairs = (query ?? queryPairs(of: url)).map { (uriEncode($0.0), uriEncode($0.1)) }
    let sorted = pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
    components.percentEncodedQuery =
      sorted.isEmpty ? nil : sorted.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    guard let canonical = components.url else {
      throw InvalidRequest(
        .url, reason: "its canonical form is not a URL", input: url.absoluteString)
    }
    return canonical
  }

  /// The query's names and values, decoded.
  static func queryPairs(of url: URL) -> [(String, String)] {
    guard let query = url.query(percentEncoded: true), !query.isEmpty else { return [] }
    return query.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0])
      let value = parts.count > 1 ? String(parts[1]) : ""
      return (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
    }
  }

  /// SigV4's URI encoding: every byte but `A-Z a-z 0-9 - _ . ~` as `%XX`.
  static func uriEncode(_ text: String) -> String {
    var encoded = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "."), UInt8(ascii: "~"):
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        encoded += String(format: "%%%02X", byte)
      }
    }
    return encoded
  }
}

/// A signing instant in SigV4's two forms, in UTC.
struct SigV4Time {
  /// `20260101T120000Z`
  let dateTime: String
  /// `20260101`
  let date: String

  init(_ instant: Date) {
    var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    date = String(
      format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    dateTime =
      date
      + String(format: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }
}
