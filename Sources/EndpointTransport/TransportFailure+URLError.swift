import EndpointKernel
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension TransportFailure {
  /// URLSession's failure `error` of `method` `url`, as the kind the curl client reports for the
  /// same failure, with Foundation's `URLError` as the underlying error.
  ///
  /// For a code that says little (URLSession on Linux reports every TLS failure as `.unknown`),
  /// Foundation's own message follows, such as "SSL certificate problem: unable to get local
  /// issuer certificate".
  package static func urlSession(method: HTTPMethod, url: URL, error: URLError) -> TransportFailure
  {
    let code = error.code
    var message = "\(Self.explanation(for: code)) (URLError \(code.rawValue))"
    if code == .unknown, let detail = Self.detail(of: error) {
      // Foundation's message may name the URL it failed on.
      message += ": " + Redaction.standard.apply(toText: detail)
    }
    let kind = Self.kind(of: code, message: message)
    // A lost connection behind `.unknown` is worth another attempt, as on the curl client.
    let transient = Self.isTransient(code) || (code == .unknown && kind == .connectionLost)
    return TransportFailure(
      kind, method: method, url: url, redactedMessage: message,
      isTransient: transient, underlyingError: error, code: code.rawValue)
  }

  private static func kind(of code: URLError.Code, message: String) -> Kind {
    switch code {
    case .cannotConnectToHost, .notConnectedToInternet: return .cannotConnect
    case .cannotFindHost, .dnsLookupFailed: return .hostNotFound
    case .networkConnectionLost, .zeroByteResource: return .connectionLost
    case .badServerResponse: return .malformedResponse
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
      .clientCertificateRejected, .clientCertificateRequired:
      return .tls
    case .unknown: return kind(ofLibcurlMessage: message)
    default: return .other
    }
  }

  /// URLSession on Linux runs on libcurl and reports most of its failures as `.unknown`, with
  /// libcurl's message; the message's words say which kind the curl client reports for it.
  private static func kind(ofLibcurlMessage message: String) -> Kind {
    let tls = ["SSL", "certificate"]
    let lost = ["transfer closed with", "Recv failure", "Connection reset", "Empty reply"]
    // A body libcurl could not decode: a coding it does not know, too many codings, corrupt
    // data, or bytes after a gzip member (its decoder fails the write).
    let undecodable = [
      "content encoding", "content unencoding", "Failed writing received data",
    ]
    if tls.contains(where: message.contains) { return .tls }
    if lost.contains(where: message.contains) { return .connectionLost }
    if undecodable.contains(where: message.contains) { return .malformedResponse }
    return .other
  }

  private static func isTransient(_ code: URLError.Code) -> Bool {
    switch code {
    case .cannotConnectToHost, .networkConnectionLost, .timedOut, .cannotFindHost,
      .dnsLookupFailed, .notConnectedToInternet:
      true
    default:
      false
    }
  }

  /// Foundation's message, when it has one of its own.
  private static func detail(of error: URLError) -> String? {
    guard let message = error.userInfo[NSLocalizedDescriptionKey] as? String else {
      return nil
    }
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  private static func explanation(for code: URLError.Code) -> String {
    switch code {
    case .cannotConnectToHost: "could not connect to the host"
    case .cannotFindHost: "the host name was not found"
    case .dnsLookupFailed: "the DNS lookup failed"
    case .networkConnectionLost: "the connection was lost before the response was complete"
    case .notConnectedToInternet: "there is no network connection"
    case .badServerResponse: "the server's response could not be read"
    case .timedOut: "the request timed out"
    case .cancelled: "the transfer was cancelled by URLSession, not by the calling task"
    case .badURL, .unsupportedURL: "the URL is not supported"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      "the secure connection failed"
    case .dataLengthExceedsMaximum: "URLSession refused the request body"
    case .zeroByteResource: "the server sent no data"
    default: "the connection failed"
    }
  }
}
