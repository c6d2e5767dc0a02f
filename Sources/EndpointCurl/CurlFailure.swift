import EndpointKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// libcurl's code and message for a failed transfer: the underlying error of a
/// ``EndpointCore/TransportFailure`` from the curl client.
package struct CurlFailure: Error, CustomStringConvertible {
  /// libcurl's `CURLcode`; 0 when the SDK found the problem.
  let code: Int
  /// libcurl's message, or the SDK's, with credentials hidden.
  let detail: String

  package var description: String {
    code == 0 ? detail : "curl error \(code): \(detail)"
  }

  /// The failure of a transfer of `method` `url`, worded as the SDK words every kind, with
  /// libcurl's code and message in brackets.
  package static func make(
    _ kind: TransportFailure.Kind,
    method: HTTPMethod,
    url: URL,
    code: Int,
    detail: String,
    isTransient: Bool? = nil,
    explanation: String? = nil
  ) -> TransportFailure {
    // libcurl's message may name the URL or the proxy it was given.
    let underlying = CurlFailure(code: code, detail: Redaction.standard.apply(toText: detail))
    return TransportFailure(
      kind, method: method, url: url,
      redactedMessage: "\(explanation ?? kind.explanation) (\(underlying))",
      isTransient: isTransient, underlyingError: underlying, code: code == 0 ? nil : code)
  }
}
