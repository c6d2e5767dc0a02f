#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A 307 or 308 redirect asks for the request body to be sent again, but the body was a stream
/// that can be read only once.
///
/// Send the body from memory or from a file (``HTTPBody``) when the server may redirect it.
public struct RedirectBodyNotReplayable: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL that answered with the redirect.
  public let url: URL
  /// The redirect status, 307 or 308.
  public let status: Int
  /// Where the redirect pointed.
  public let location: URL

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, status: Int, location: URL) {
    self.method = method
    self.url = url
    self.status = status
    self.location = location
  }

  /// A sentence naming the redirect and what to do.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): \(status) redirect to "
      + "\(URLRedaction.redacted(location)) needs the body again, but it was a stream that "
      + "can be read only once; send it from memory or from a file"
  }
}

extension RedirectBodyNotReplayable: CustomReflectable {
  /// The stored properties with the URL and the location shown as ``description`` shows them, for
  /// `dump(_:)`, LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "status": status,
        "location": URLRedaction.redacted(location),
      ])
  }
}
