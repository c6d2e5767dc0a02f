import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The request could not be sent or the response could not be received: the connection was
/// refused, reset or closed early, the host was not found, TLS failed, and so on.
///
/// It names the request and keeps Foundation's `URLError` with its code, so a caller can tell a
/// refused connection from a lost one.
///
/// ```swift
/// catch let error as ConnectionFailure
///  where error.code == .networkConnectionLost {
///   retry()
/// }
/// ```
public struct ConnectionFailure: Error, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL being fetched when the connection failed.
  public let url: URL
  /// Foundation's error.
  public let underlying: URLError

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, underlying: URLError) {
    self.method = method
    self.url = url
    self.underlying = underlying
  }

  /// Foundation's error code, such as `.cannotConnectToHost` or `.networkConnectionLost`.
  public var code: URLError.Code { underlying.code }

  /// A sentence naming the request, what failed and the `URLError` code.
  ///
  /// For a code that says little (URLSession on Linux reports every TLS failure as
  /// `.unknown`), Foundation's own message follows, such as "SSL certificate problem: unable to
  /// get local issuer certificate".
  public var description: String {
    var text =
      "\(method) \(URLRedaction.redacted(url)): \(ConnectionFailure.explanation(for: code)) "
      + "(URLError \(code.rawValue))"
    if code == .unknown, let message = detail {
      // Foundation's message may name the URL it failed on.
      text += ": " + Redaction.standard.apply(toText: message)
    }
    return text
  }

  /// Foundation's message, when it has one of its own.
  private var detail: String? {
    guard let message = underlying.userInfo[NSLocalizedDescriptionKey] as? String else {
      return nil
    }
    let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  static func explanation(for code: URLError.Code) -> String {
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

extension ConnectionFailure: CustomReflectable {
  /// The stored properties for `dump(_:)`, LLDB's `po` and failed test expectations: the URL shown
  /// as ``description`` shows it, and of the `URLError` (whose user information holds the failing
  /// URL) its code and its message with their secrets hidden.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "code": code.rawValue,
        "underlying": detail.map { Redaction.standard.apply(toText: $0) } as Any,
      ])
  }
}
