import EndpointCore
import EndpointPrimitives

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// One factory per failure the SDK's own clients find, each with the sentence it prints, so both
// transports word the same failure alike.
extension TransportFailure {
  /// No byte was sent or received for `silence`, longer than the idle timeout `limit`.
  package static func idleTimeout(
    method: HTTPMethod, url: URL, limit: Duration, silence: Duration
  ) -> Self {
    Self(
      .idleTimeout, method: method, url: url,
      redactedMessage: "timed out, no bytes for \(silence.shortDescription) "
        + "(idle timeout \(limit.shortDescription))",
      isTransient: true, timeout: limit, elapsed: silence)
  }

  /// The exchange ran for `elapsed`, past its deadline `limit`.
  package static func deadlineExceeded(
    method: HTTPMethod, url: URL, limit: Duration, elapsed: Duration
  ) -> Self {
    Self(
      .deadlineExceeded, method: method, url: url,
      redactedMessage: "timed out, not finished after \(elapsed.shortDescription) "
        + "(deadline \(limit.shortDescription))",
      isTransient: true, timeout: limit, elapsed: elapsed)
  }

  /// No connection was made within `limit`.
  package static func connectTimeout(method: HTTPMethod, url: URL, limit: Duration) -> Self {
    Self(
      .connectTimeout, method: method, url: url,
      redactedMessage: "could not connect within \(limit.shortDescription) (connect timeout)",
      isTransient: true, timeout: limit)
  }

  /// More than `limit` redirects; `chain` is every URL visited, the request's first.
  package static func tooManyRedirects(method: HTTPMethod, limit: Int, chain: [URL]) -> Self {
    let urls = chain.map { Redaction.redacted($0) }
    return Self(
      .tooManyRedirects, method: method, url: chain.first,
      redactedMessage: "more than \(limit) redirects: " + urls.joined(separator: " → "),
      isTransient: false, limit: limit, redirects: chain)
  }

  /// A `status` redirect to `location` needs a request body that could be read only once.
  package static func redirectBodyNotReplayable(
    method: HTTPMethod, url: URL, status: Int, location: URL
  ) -> Self {
    Self(
      .redirectBodyNotReplayable, method: method, url: url,
      redactedMessage:
        "\(status) redirect to \(Redaction.redacted(location)) needs the body again, "
        + "but it was a stream that can be read only once; send it from memory or from a file",
      isTransient: false, redirects: [url, location])
  }

  /// A request body produced `produced` bytes where it declared `declared`; `fileURL` is the
  /// body's file, if it came from one.
  package static func bodyLengthMismatch(
    method: HTTPMethod, url: URL, declared: Int64, produced: Int64, fileURL: URL? = nil
  ) -> Self {
    let message: String
    if let fileURL {
      let name = HTTPToken.quotedForMessage(fileURL.lastPathComponent, limit: 80)
      let found =
        produced < declared ? "ended after \(produced) bytes" : "holds at least \(produced) bytes"
      message =
        "the request body's file \(name) \(found), but it had \(declared) "
        + "bytes when the body was made; make the body once the file is complete"
    } else {
      let found =
        produced < declared ? "ended after \(produced) bytes" : "gave at least \(produced) bytes"
      message =
        "the request body's stream \(found), "
        + "but it declared a length of \(declared) bytes; declare the exact length or none"
    }
    return Self(
      .bodyLengthMismatch, method: method, url: url, redactedMessage: message, isTransient: false,
      byteCount: produced, declaredLength: declared, fileURL: fileURL)
  }

  /// The answer is not a valid HTTP response, for `reason`.
  package static func malformedResponse(method: HTTPMethod, url: URL, reason: String) -> Self {
    Self(
      .malformedResponse, method: method, url: url,
      redactedMessage: "the server's answer is not a valid HTTP response (\(reason))",
      isTransient: false)
  }

  /// The response's `Transfer-Encoding` (`transferEncoding`, each value) has a transfer
  /// coding the client could not decode: one it does not know, or bytes its decoder refused.
  /// RFC 9112 §6.1 leaves the client no other reading, so it is an error on both clients,
  /// never a body passed on still coded; `underlying` is the transport's own failure and
  /// `detail` its words, already redacted.
  package static func undecodableTransferCoding(
    method: HTTPMethod, url: URL, transferEncoding: [String],
    underlying: any Error, detail: String, code: Int?
  ) -> Self {
    let shown = HTTPToken.quotedForMessage(transferEncoding.joined(separator: ", "), limit: 60)
    return Self(
      .malformedResponse, method: method, url: url,
      redactedMessage: "the response's Transfer-Encoding \(shown) has a transfer coding the "
        + "client could not decode (\(detail))",
      isTransient: false, underlyingError: underlying, code: code)
  }

  /// The server switched protocols (101) to `upgrade` although the request asked for none.
  package static func unrequestedProtocolSwitch(
    method: HTTPMethod, url: URL, upgrade: String?
  ) -> Self {
    let offered = upgrade.map { " to \"\($0.prefix(100))\"" } ?? ""
    return Self(
      .malformedResponse, method: method, url: url,
      redactedMessage: "the server switched protocols\(offered) "
        + "(101) although the request asked for no upgrade; the response was refused",
      isTransient: false)
  }

  /// The response's `Content-Length` `value` is not one valid length.
  package static func invalidContentLength(method: HTTPMethod, url: URL, value: String) -> Self {
    let shown = value.count > 100 ? String(value.prefix(100)) + "…" : value
    return Self(
      .malformedResponse, method: method, url: url,
      redactedMessage: "the response's Content-Length "
        + "\"\(shown)\" is not one valid length, so the body's end is unknown; the response "
        + "was refused",
      isTransient: false)
  }

  /// The client named `client` was shut down.
  package static func shutDown(method: HTTPMethod, url: URL, client: String) -> Self {
    Self(
      .shutDown, method: method, url: url,
      redactedMessage: "the \(client) was shut down; make a new client to send more requests",
      isTransient: false)
  }

  /// A download could not be saved to `destination`, for `reason`.
  package static func downloadFile(destination: URL, reason: String) -> Self {
    Self(
      .downloadFile, method: nil, url: nil,
      redactedMessage: "Cannot save the download to \(destination.path): \(reason)",
      isTransient: false, fileURL: destination)
  }

  /// More than `limit` bytes of a streamed body waited for its reader.
  package static func bufferOverflow(method: HTTPMethod, url: URL, limit: Int) -> Self {
    Self(
      .bufferOverflow, method: method, url: url,
      redactedMessage: "more than \(limit) bytes of the response body were "
        + "waiting to be read; read the body faster, raise bodyBufferLimit, or download to a file",
      isTransient: false, limit: limit)
  }
}

extension TransportFailure.Kind {
  /// What a failure of this kind means, for a transport's message.
  package var explanation: String {
    switch self {
    case .cannotConnect: "could not connect to the host"
    case .hostNotFound: "the host name was not found"
    case .connectionLost: "the connection was lost before the response was complete"
    case .malformedResponse: "the server's response is not valid HTTP"
    case .tls: "the secure connection failed"
    case .proxy: "the proxy failed"
    default: "the transfer failed"
    }
  }
}
