import EndpointCore

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
