import EndpointKernel
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A response head as URLSession delivered it, turned into an ``HTTPResponse`` by the caller's
/// task rather than by the delegate callback.
///
/// The conversion reads and sorts every header field. On Linux the delegate callbacks run on
/// URLSession's serial work queue (see ``InlineDelegateQueue``), which every request of the
/// session shares and which limits its throughput; the caller's task runs on the concurrency
/// pool, in parallel with it. What the callbacks need (status, URL, declared length) is read
/// directly from the Foundation response.
struct FoundationResponseHead: Sendable {
  let response: URLResponse

  init(_ response: URLResponse) {
    self.response = response
  }

  /// The status; a head that is not HTTP never gets this far (see ``refusal(method:url:request:)``).
  var status: Int { (response as? HTTPURLResponse)?.statusCode ?? 0 }

  var url: URL? { response.url }

  /// Whether this is an interim head (`1xx` but `101`), which another head follows.
  var isInterim: Bool { (100..<200).contains(status) && status != 101 }

  /// The response as the SDK's type.
  var converted: HTTPResponse {
    if let http = response as? HTTPURLResponse { return HTTPResponse(http) }
    return HTTPResponse(status: status, url: response.url)
  }

  /// Why this head must not be delivered, if it must not: it is not HTTP, it is a `101` nobody
  /// asked for (or another interim status given as final; the delegate skips the interim heads
  /// Foundation reports before the final one, see ``isInterim``), its `Content-Length` is
  /// not one valid length, or its framing is ambiguous (``ResponseFraming``).
  func refusal(method: HTTPMethod, url: URL, request: HTTPFields) -> (any Error)? {
    guard let http = response as? HTTPURLResponse else {
      return TransportFailure.malformedResponse(
        method: method, url: url, reason: "no HTTP status line")
    }
    let status = http.statusCode
    if (100..<200).contains(status) {
      if status == 101 {
        if !request.contains("Upgrade") {
          return TransportFailure.unrequestedProtocolSwitch(
            method: method,
            url: url,
            upgrade: http.value(forHTTPHeaderField: "Upgrade")
          )
        }
      } else {
        return TransportFailure.malformedResponse(
          method: method,
          url: url,
          reason: "the interim status \(status) was given as the final one"
        )
      }
    }
    if let length = http.value(forHTTPHeaderField: "Content-Length"),
      ContentLength.parse(length) == nil
    {
      return TransportFailure.invalidContentLength(method: method, url: url, value: length)
    }
    if let transferEncoding = http.value(forHTTPHeaderField: "Transfer-Encoding"),
      let reason = ResponseFraming.ambiguity(
        status: status,
        method: method,
        transferEncoding: [transferEncoding],
        hasContentLength: http.value(forHTTPHeaderField: "Content-Length") != nil
      )
    {
      return TransportFailure.malformedResponse(method: method, url: url, reason: reason)
    }
    return nil
  }

  /// The body length the response declares, with the rules of
  /// ``EndpointCore/HTTPResponse/declaredBodyLength(method:)``.
  ///
  /// Foundation joins repeated fields with `", "`: repeated `Content-Length` fields of one value
  /// read as that value (different ones are refused before, see ``refusal(method:url:request:)``),
  /// and repeated `Content-Encoding` fields as an encoding: an unknown length.
  func declaredBodyLength(method: HTTPMethod) -> Int64? {
    guard let http = response as? HTTPURLResponse else { return nil }
    return ResponseFraming.declaredBodyLength(
      status: http.statusCode,
      method: method,
      contentEncoding: http.value(forHTTPHeaderField: "Content-Encoding"),
      contentLength: http.value(forHTTPHeaderField: "Content-Length").map { [$0] } ?? []
    )
  }
}
