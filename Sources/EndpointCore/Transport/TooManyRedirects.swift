#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A request was redirected more often than the client's ``RedirectPolicy`` allows.
///
/// ```swift
/// catch let error as TooManyRedirects {
///   print(error.chain)  // every URL visited, the first request's URL first
/// }
/// ```
public struct TooManyRedirects: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The largest number of redirects the policy follows.
  public let limit: Int
  /// The URLs in order: the original request's, then each redirect target, ending with the one
  /// that was not followed.
  public let chain: [URL]

  /// Creates the error.
  public init(method: HTTPMethod, limit: Int, chain: [URL]) {
    self.method = method
    self.limit = limit
    self.chain = chain
  }

  /// A sentence with the limit and the chain of URLs (credentials in them redacted).
  public var description: String {
    let urls = chain.map { URLRedaction.redacted($0) }
    return "\(method) \(urls.first ?? "?"): more than \(limit) redirects: "
      + urls.joined(separator: " → ")
  }
}

extension TooManyRedirects: CustomReflectable {
  /// The stored properties with the URLs of the chain shown as ``description`` shows them, for
  /// `dump(_:)`, LLDB's `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "method": method,
        "limit": limit,
        "chain": chain.map { URLRedaction.redacted($0) },
      ],
      displayStyle: .struct)
  }
}
