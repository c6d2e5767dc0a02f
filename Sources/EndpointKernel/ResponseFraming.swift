import EndpointCore
import EndpointPrimitives

/// Whether a response has a body, and the length it declares: the rules both transports apply to
/// a response head before the body arrives.
package enum ResponseFraming {
  /// Whether a response with `status` to `method` can have a body (RFC 9110, section 6.4.1).
  package static func hasBody(status: Int, method: HTTPMethod) -> Bool {
    !(method == .head || (100..<200).contains(status) || status == 204 || status == 304)
  }

  /// The body length a response declares, when it is the length of the bytes delivered: 0 for a
  /// response that has no body, `nil` with a `Content-Encoding` other than `identity` (the
  /// declared length is the encoded one, and the caller gets decoded bytes) or without one
  /// length in `contentLength` (each `Content-Length` value, see ``ContentLength``).
  package static func declaredBodyLength(
    status: Int,
    method: HTTPMethod,
    contentEncoding: String?,
    contentLength: [String]
  ) -> Int64? {
    if !hasBody(status: status, method: method) { return 0 }
    if let contentEncoding, !FieldName.equals(contentEncoding, "identity") { return nil }
    return ContentLength.parse(fields: contentLength)
  }

  /// Why a response head frames its body ambiguously, or `nil` when it does not: RFC 9112,
  /// section 6.3 reads such a message in more than one way, so both transports refuse it rather
  /// than pick one reading. `transferEncoding` holds each `Transfer-Encoding` value (repeated
  /// fields, or one joined by commas); `hasContentLength` whether a `Content-Length` came too.
  ///
  /// A response that has no body (``hasBody(status:method:)``) is never ambiguous: its framing
  /// fields frame nothing.
  package static func ambiguity(
    status: Int,
    method: HTTPMethod,
    transferEncoding: [String],
    hasContentLength: Bool
  ) -> String? {
    guard !transferEncoding.isEmpty, hasBody(status: status, method: method) else { return nil }
    if hasContentLength {
      return "the response has both Transfer-Encoding and Content-Length, which RFC 9112 "
        + "(section 6.3) reads as an error"
    }
    // Codings are tokens, so spaces and commas only separate them (a parameter on the last one
    // leaves it not plain `chunked`).
    let last = transferEncoding.last?
      .split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).last
    if let last, FieldName.equals(String(last), "chunked") { return nil }
    let shown = HTTPToken.quotedForMessage(transferEncoding.joined(separator: ", "), limit: 60)
    return "the response's Transfer-Encoding \(shown) does not end in chunked, so the body's "
      + "end is unknown"
  }
}

extension ResponseFraming {
  /// Whether `transferEncoding` (each `Transfer-Encoding` value) names a transfer coding other
  /// than `chunked` (RFC 9112 §6.1): one the client must decode, or fail.
  package static func hasTransferCoding(_ transferEncoding: [String]) -> Bool {
    transferEncoding.lazy
      .flatMap { $0.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) }
      .contains { !FieldName.equals(String($0), "chunked") }
  }
}

extension HTTPResponse {
  /// The body length the response declares for a request with `method`; see
  /// ``ResponseFraming/declaredBodyLength(status:method:contentEncoding:contentLength:)``.
  package func declaredBodyLength(method: HTTPMethod) -> Int64? {
    ResponseFraming.declaredBodyLength(
      status: status,
      method: method,
      contentEncoding: headerFields["Content-Encoding"],
      contentLength: headerFields.values(for: "Content-Length")
    )
  }
}
