#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension TransportFailure {
  /// The response body reached `received` bytes, over the size limit `limit`.
  package static func responseTooLarge(limit: Int, received: Int64) -> Self {
    Self(
      .responseTooLarge, method: nil, url: nil,
      redactedMessage:
        "Response body too large: \(received) bytes exceeds the limit of \(limit) bytes; "
        + "raise the limit or stream the body",
      isTransient: false, limit: limit, byteCount: received)
  }

  /// A line, or a server-sent event when `serverSentEvent`, is longer than `limit` bytes.
  static func lineTooLong(serverSentEvent: Bool = false, limit: Int) -> Self {
    let unit = serverSentEvent ? "server-sent event" : "line"
    return Self(
      .lineTooLong, method: nil, url: nil,
      redactedMessage: "A \(unit) of the response body is longer than the limit of \(limit) bytes",
      isTransient: false, limit: limit)
  }
}

extension TransportFailure.Kind {
  /// Whether a failure of this kind is worth another attempt, unless the transport knows better.
  var isTransientByDefault: Bool { TransportFailure.transientKinds.contains(self) }
}
