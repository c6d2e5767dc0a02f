#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HTTPBody: CustomReflectable {
  /// The length and what the body holds: a body in memory as a bounded preview with its secrets
  /// hidden (``Redaction/preview(of:contentType:totalLength:limit:)``), a file by its path, a
  /// stream by its kind, so `dump(_:)` and LLDB's `po` never show a password in a body.
  public var customMirror: Mirror {
    Mirror(
      self, children: ["length": length as Any, "content": shownContent(contentType: nil)],
      displayStyle: .struct)
  }

  /// The body as mirrors show it; `contentType` lets the redaction find a multipart boundary.
  func shownContent(contentType: String?) -> String {
    switch storage {
    case .buffer(let data): Redaction.standard.preview(of: data, contentType: contentType)
    case .file(let url): "file \(url.path)"
    case .stream: "stream, read once"
    }
  }
}
