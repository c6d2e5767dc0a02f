#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension TestDoubleFailure: CustomReflectable {
  /// The kind, then the properties the kind sets: the URL with its credentials hidden, the
  /// request (its mirror hides its secrets), the body as the description previews it, and the
  /// texts of errors with their secrets hidden, for `dump(_:)` and failed test expectations.
  public var customMirror: Mirror {
    var children: [Mirror.Child] = [("kind", kind)]
    // Only what the kind sets: a mirror of twenty empty properties would hide what matters.
    func add(_ label: String, _ value: Any?) {
      if let value { children.append((label, value)) }
    }
    add("method", method)
    add("url", url.map { Redaction.redacted($0) })
    add("request", request)
    add(
      "body",
      body.map {
        Redaction.standard.preview(of: $0, contentType: request?.headerFields["Content-Type"])
      })
    add("nearestRules", nearestRules.isEmpty ? nil : nearestRules)
    add("suggestedRule", suggestedRule)
    add("reason", reason)
    add("rule", rule)
    add("problems", problems.isEmpty ? nil : problems)
    add("requests", requests.isEmpty ? nil : requests)
    add("file", file)
    add("mode", mode)
    add("nearestRecordings", nearestRecordings.isEmpty ? nil : nearestRecordings)
    add("alreadyReplayed", alreadyReplayed == 0 ? nil : alreadyReplayed)
    add("secretNumber", secretNumber)
    add("secretForm", secretForm)
    add("secretLocation", secretLocation)
    add("secretDescription", secretDescription)
    add("environmentValue", environmentValue)
    add("recordedError", recordedError.map { Redaction.standard.apply(toText: $0) })
    add(
      "underlyingError",
      underlyingError.map { Redaction.standard.apply(toText: String(describing: $0)) })
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
