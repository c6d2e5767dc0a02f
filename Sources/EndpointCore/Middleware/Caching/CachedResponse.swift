#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One stored response: its head, its body and when it was received, with the request's values
/// of the fields its `Vary` names.
public struct CachedResponse: Sendable, Hashable {
  /// The URL of the response.
  public var url: URL
  /// The status code.
  public var status: Int
  /// The response's header fields, as last received or updated by a `304`.
  public var headerFields: HTTPFields
  /// The body.
  public var body: Data
  /// When the request that produced (or last revalidated) the response was sent.
  public var requestTime: Date
  /// When the response (or the `304` that last revalidated it) arrived.
  public var responseTime: Date
  /// The request's values of the fields the response's `Vary` names, by lowercased name; a
  /// field the request did not have is absent.
  public var varyValues: [String: String]

  /// Creates a stored response.
  ///
  /// - Parameters:
  ///   - url: the URL of the response.
  ///   - status: the status code.
  ///   - headerFields: the response's header fields.
  ///   - body: the body.
  ///   - requestTime: when the request was sent.
  ///   - responseTime: when the response arrived.
  ///   - varyValues: the request's values of the fields named by `Vary`, by lowercased name.
  public init(
    url: URL,
    status: Int,
    headerFields: HTTPFields,
    body: Data,
    requestTime: Date,
    responseTime: Date,
    varyValues: [String: String] = [:]
  ) {
    self.url = url
    self.status = status
    self.headerFields = headerFields
    self.body = body
    self.requestTime = requestTime
    self.responseTime = responseTime
    self.varyValues = varyValues
  }

  /// About how many bytes the entry takes: the body, the fields and a small fixed overhead.
  public var size: Int {
    body.count + headerFields.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
      + varyValues.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
  }
}

extension CachedResponse: CustomReflectable {
  /// The stored properties for `dump(_:)` and LLDB's `po`, with the URL, the fields and the body
  /// shown as an ``UnexpectedResponse`` shows them, and the `Vary` values of credentials hidden.
  public var customMirror: Mirror {
    let shownVary = Dictionary(
      uniqueKeysWithValues: varyValues.map { name, value in
        (name, HTTPFields.isSensitive(name) ? HTTPFields.redactedValue : value)
      })
    return Mirror(
      self,
      children: [
        "url": Redaction.standard.apply(to: url),
        "status": status,
        "headerFields": headerFields.redacted(),
        "body": Redaction.standard.preview(of: body, contentType: headerFields["Content-Type"]),
        "requestTime": requestTime,
        "responseTime": responseTime,
        "varyValues": shownVary,
      ],
      displayStyle: .struct)
  }
}
