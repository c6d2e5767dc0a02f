#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CurlHTTPClient {
  /// The client was shut down: requests in flight at that moment fail with this error, and so
  /// does every request sent afterwards.
  ///
  /// See ``CurlHTTPClient/shutdown()``.
  public typealias ShutDown = ClientShutDown<CurlHTTPClient>
}
