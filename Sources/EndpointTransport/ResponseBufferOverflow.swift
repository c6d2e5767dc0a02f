#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The response body arrived faster than it was read and the bytes waiting to be read passed
/// ``URLSessionHTTPClient/Configuration/bodyBufferLimit``, so the transfer was stopped.
///
/// URLSession on Linux cannot pause a transfer (suspending a task closes the connection), so a
/// streamed body is buffered until it is read; this bound keeps memory in check. Read the body
/// faster, raise the limit, or use
/// ``EndpointCore/HTTPTransferClient/download(_:to:accepting:progress:)`` to write large bodies straight
/// to a file.
public struct ResponseBufferOverflow: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL of the response.
  public let url: URL
  /// The largest number of unread bytes allowed.
  public let limit: Int

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, limit: Int) {
    self.method = method
    self.url = url
    self.limit = limit
  }

  /// A sentence naming the limit and the ways out.
  public var description: String {
    "\(method) \(URLRedaction.redacted(url)): more than \(limit) bytes of the response body were "
      + "waiting to be read; read the body faster, raise bodyBufferLimit, or download to a file"
  }
}

extension ResponseBufferOverflow: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(self, method: method, url: url, ["limit": limit])
  }
}
