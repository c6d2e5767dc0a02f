#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Fixture.Request: CustomReflectable {
  /// The method, the URL and the fields with their credentials hidden, and the body as a bounded
  /// preview with its secrets hidden, for `dump(_:)` and LLDB's `po`.
  var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "method": method,
        "url": Redaction.redacted(url),
        "headerFields": headerFields.redacted(),
        "body": Redaction.standard.preview(of: body, contentType: headerFields["Content-Type"]),
      ],
      displayStyle: .struct)
  }
}

extension Fixture.Response: CustomReflectable {
  /// The status, the fields and trailer fields with their credentials hidden, and the body as a
  /// bounded preview with its secrets hidden, for `dump(_:)` and LLDB's `po`.
  var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "status": status,
        "headerFields": headerFields.redacted(),
        "body": Redaction.standard.preview(of: body, contentType: headerFields["Content-Type"]),
        "trailerFields": trailerFields?.redacted() as Any,
      ],
      displayStyle: .struct)
  }
}

extension Fixture.Interaction: CustomReflectable {
  /// The request, the response and the error's text with its secrets hidden, for `dump(_:)` and
  /// LLDB's `po`.
  var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "request": request,
        "response": response as Any,
        "error": error.map { Redaction.standard.apply(toText: $0) } as Any,
      ],
      displayStyle: .struct)
  }
}
