#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A streamed request body gave a different number of bytes than the length it declared
/// (`HTTPBody(chunks, length:)`), so the request was stopped rather than sent with a wrong
/// `Content-Length`. Thrown by every transport.
///
/// A stream that ends short would leave the server waiting for the missing bytes; one that
/// runs long would have its extra bytes cut off. Declare no length when it is not known.
public struct BodyLengthMismatch: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request's method.
  public let method: HTTPMethod
  /// The request's URL.
  public let url: URL
  /// The length the body declared, in bytes.
  public let declared: Int64
  /// The bytes the stream gave: all of them when it ended short, otherwise the count at the
  /// chunk that went past `declared`.
  public let produced: Int64

  /// Creates the error.
  public init(method: HTTPMethod, url: URL, declared: Int64, produced: Int64) {
    self.method = method
    self.url = url
    self.declared = declared
    self.produced = produced
  }

  /// A sentence naming the request and both lengths.
  public var description: String {
    let found =
      produced < declared
      ? "ended after \(produced) bytes"
      : "gave at least \(produced) bytes"
    return "\(method) \(URLRedaction.redacted(url)): the request body's stream \(found), "
      + "but it declared a length of \(declared) bytes; declare the exact length or none"
  }
}
