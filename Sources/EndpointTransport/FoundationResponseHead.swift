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

  var status: Int { (response as? HTTPURLResponse)?.statusCode ?? 200 }

  var url: URL? { response.url }

  /// The response as the SDK's type.
  var converted: HTTPResponse {
    if let http = response as? HTTPURLResponse { return HTTPResponse(http) }
    return HTTPResponse(status: 200, url: response.url)
  }

  /// The body length the response declares, with the rules of
  /// ``EndpointCore/HTTPResponse/declaredBodyLength(method:)``.
  ///
  /// Foundation joins repeated fields with `", "`, so repeated `Content-Length` or
  /// `Content-Encoding` fields read as no number or as an encoding: an unknown length.
  func declaredBodyLength(method: HTTPMethod) -> Int64? {
    guard let http = response as? HTTPURLResponse else { return nil }
    if !HTTPResponse.hasBody(status: http.statusCode, method: method) { return 0 }
    if let encoding = http.value(forHTTPHeaderField: "Content-Encoding"),
      !FieldName.equals(encoding, "identity")
    {
      return nil
    }
    guard let text = http.value(forHTTPHeaderField: "Content-Length"), let length = Int64(text),
      length >= 0
    else { return nil }
    return length
  }
}
