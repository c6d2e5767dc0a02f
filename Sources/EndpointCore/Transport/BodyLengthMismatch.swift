#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A streamed request body gave a different number of bytes than the length it declared
/// (`HTTPBody(chunks, length:)`), or a file body's file grew or shrank after the body was made
/// (``fileURL`` names it), so the request was stopped rather than sent with a wrong
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
  /// The file the body was read from, when it was a file body
  /// (``HTTPBody/init(contentsOf:)``) that grew or shrank after the body was made, its length
  /// read; `nil` for a stream.
  public let fileURL: URL?

  /// Creates the error.
  ///
  /// - Parameters:
  ///   - method: the request's method.
  ///   - url: the request's URL.
  ///   - declared: the length the body declared, in bytes.
  ///   - produced: the bytes the body gave (see ``produced``).
  ///   - fileURL: the file of a file body that changed; `nil` for a stream.
  public init(
    method: HTTPMethod,
    url: URL,
    declared: Int64,
    produced: Int64,
    fileURL: URL? = nil
  ) {
    self.method = method
    self.url = url
    self.declared = declared
    self.produced = produced
    self.fileURL = fileURL
  }

  /// A sentence naming the request and both lengths, and for a file body its name.
  public var description: String {
    let request = "\(method) \(URLRedaction.redacted(url))"
    if let fileURL {
      let name = HTTPToken.quotedForMessage(fileURL.lastPathComponent, limit: 80)
      let found =
        produced < declared ? "ended after \(produced) bytes" : "holds at least \(produced) bytes"
      return "\(request): the request body's file \(name) \(found), but it had \(declared) "
        + "bytes when the body was made; make the body once the file is complete"
    }
    let found =
      produced < declared
      ? "ended after \(produced) bytes"
      : "gave at least \(produced) bytes"
    return "\(request): the request body's stream \(found), "
      + "but it declared a length of \(declared) bytes; declare the exact length or none"
  }
}

extension BodyLengthMismatch: CustomReflectable {
  /// The stored properties with the URL shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self, method: method, url: url,
      [
        "declared": declared,
        "produced": produced,
        "fileURL": fileURL as Any,
      ])
  }
}
