#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Endpoint: CustomReflectable {
  /// The stored properties as `dump(_:)`, LLDB's `po` and a failed `#expect` show them: the URL and
  /// the secret query values hidden as ``Redaction/redacted(_:additionalQueryNames:)`` hides them, the headers' credentials
  /// hidden, the payload as ``RequestPayload/customMirror`` shows it.
  public var customMirror: Mirror {
    let shownQuery = query.map { item in
      guard let value = item.value else { return item }
      return URLQueryItem(
        name: item.name,
        value: URLRedaction.isSensitiveQueryName(item.name)
          ? HTTPFields.redactedValue : URLRedaction.redacted(value: value))
    }
    return Mirror(
      self, method: method, url: url,
      [
        "query": shownQuery,
        "headers": headers.redacted(),
        "payload": payload,
        "parser": parser,
        "timeout": timeout as Any,
        "options": options,
        "urlError": urlError as Any,
        "headerError": headerError as Any,
      ])
  }
}
