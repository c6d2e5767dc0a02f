import Foundation

extension URLSessionHTTPClient.Configuration {
  /// Why a request cannot be sent with this configuration on this platform, if it cannot.
  ///
  /// On Linux, Foundation's URLSession offers no server-trust hook: a client configured with
  /// pins would send every request unpinned, so it sends none.
  func unsupportedServerOption(for request: HTTPRequest) -> InvalidRequest? {
    if request.body?.sendsTrailerFields == true {
      return InvalidRequest.unsupported(
        method: request.method,
        url: request.url,
        reason: "the body has trailer fields, which URLSession cannot send; use CurlHTTPClient "
          + "(EndpointCurl)"
      )
    }
    #if canImport(FoundationNetworking)
      guard !pinnedPublicKeys.isEmpty else { return nil }
      return InvalidRequest.unsupported(
        method: request.method,
        url: request.url,
        reason: "public-key pinning is configured, but URLSession on Linux offers no hook to "
          + "check the server's key, and the request is not sent unpinned; use CurlHTTPClient "
          + "(EndpointCurl) for pinning on Linux"
      )
    #else
      return nil
    #endif
  }
}
