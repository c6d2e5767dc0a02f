#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Mirror {
  /// The mirror of a value that names a request, as the SDK's redacting mirrors show one:
  /// `method`, then `url` with its credentials hidden by ``Redaction/redacted(_:additionalQueryNames:)`` (as the value's
  /// `description` shows it), then `rest` in order.
  init<Subject>(
    _ subject: Subject,
    method: HTTPMethod,
    url: URL,
    _ rest: KeyValuePairs<String, Any> = [:]
  ) {
    let request: [Child] = [("method", method), ("url", URLRedaction.redacted(url))]
    self.init(
      subject,
      children: request + rest.map { (label: $0.key, value: $0.value) },
      displayStyle: .struct)
  }
}
