import Foundation

/// One request a ``RecordingClient`` passed on, with what came back.
///
/// The response body fills in as the caller reads it; ``isComplete`` says when it is all there.
public struct RecordedExchange: Sendable, CustomStringConvertible {
  /// The request as it was sent; its body, if any, is held in memory.
  public var request: HTTPRequest
  /// The bytes of the request body as the client read them (empty when there was none).
  public var requestBody: Data
  /// The response head, or `nil` when the client threw before answering.
  public var response: HTTPResponse?
  /// The bytes of the response body read so far.
  public var responseBody: Data
  /// The error the client or the body threw, if any.
  public var error: (any Error)?
  /// The time from sending the request to receiving the response head (or the error).
  public var duration: Duration
  /// The time from sending the request to the end of the response body, once it was read.
  public var totalDuration: Duration?
  /// Whether the response body was read to its end (or the exchange failed).
  public var isComplete: Bool
  /// The trailer fields the request body sent after its last chunk, once the transport asked
  /// for them; `nil` when it sent none.
  public var requestTrailerFields: HTTPFields? = nil
  /// The trailer fields that followed the response body, once it was read to its end; `nil`
  /// when there were none or the transport does not read them.
  public var responseTrailerFields: HTTPFields? = nil

  /// `METHOD URL → status` (or the error).
  public var description: String {
    if let response { return "\(request) → \(response)" }
    if let error { return "\(request) → error: " + Redaction.standard.apply(toText: "\(error)") }
    return "\(request) → pending"
  }
}

extension RecordedExchange: CustomReflectable {
  /// The stored properties for `dump(_:)` and failed test expectations: the request and the
  /// response (their mirrors hide their secrets), the bodies as bounded previews and the error as
  /// text, their secrets hidden, the trailer fields' credentials hidden.
  public var customMirror: Mirror {
    let redaction = Redaction.standard
    return Mirror(
      self,
      children: [
        "request": request,
        "requestBody": redaction.preview(
          of: requestBody, contentType: request.headerFields["Content-Type"]),
        "response": response as Any,
        "responseBody": redaction.preview(
          of: responseBody, contentType: response?.headerFields["Content-Type"]),
        "error": error.map { redaction.apply(toText: String(describing: $0)) } as Any,
        "duration": duration,
        "totalDuration": totalDuration as Any,
        "isComplete": isComplete,
        "requestTrailerFields": requestTrailerFields?.redacted() as Any,
        "responseTrailerFields": responseTrailerFields?.redacted() as Any,
      ],
      displayStyle: .struct)
  }
}
