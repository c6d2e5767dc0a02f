#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The response declared a `Content-Length` that is not one valid length, so it was refused.
///
/// A length with a sign, hexadecimal digits, a space inside the number or a value past
/// `Int64.max` is invalid, and so are repeated `Content-Length` fields (or one field with a list)
/// whose values differ: the body's end is then unknown, and reading it anyway lets a server or a
/// proxy in between smuggle one response into another (RFC 9110, section 8.6).
///
/// ```swift
/// do {
///   _ = try await client.call(endpoint)
/// } catch let error as InvalidContentLength {
///   print(error)
///   // GET http://…: the response's Content-Length "5, 10" is not one
///   // valid length…
/// }
/// ```
public struct InvalidContentLength: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The URL that answered.
  public let url: URL
  /// The `Content-Length` value as received; repeated fields joined with `", "`.
  public let value: String

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, value: String) {
    self.method = method
    self.url = url
    self.value = value
  }

  /// A sentence naming the request (credentials in its URL redacted) and the value.
  public var description: String {
    let shown = value.count > 100 ? String(value.prefix(100)) + "…" : value
    return "\(method) \(URLRedaction.redacted(url)): the response's Content-Length "
      + "\"\(shown)\" is not one valid length, so the body's end is unknown; the response "
      + "was refused"
  }
}

extension InvalidContentLength: TransportFailure {
  /// Always `false`: the server sends the same invalid head again.
  public var isTransient: Bool { false }
}

extension InvalidContentLength: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(self, method: method, url: url, ["value": value])
  }
}
