import EndpointCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The refusals only the transports make, worded like the rest.
extension InvalidRequest {
  /// A client configuration's setting no request could work with.
  package static func invalidConfiguration(_ setting: String, reason: String) -> Self {
    Self(.configuration, reason: reason, setting: setting)
  }

  /// A request the client cannot send as it is.
  package static func unsupported(method: HTTPMethod, url: URL, reason: String) -> Self {
    Self(.unsupported, reason: reason, method: method, url: url)
  }
}
