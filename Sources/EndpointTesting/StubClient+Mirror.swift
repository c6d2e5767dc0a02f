#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension StubClient: CustomReflectable {
  /// The base URL without its credentials, the clock, the body limit and the requests received
  /// (as ``RecordedRequest`` shows them), for `dump(_:)` and LLDB's `po`.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "baseURL": baseURL.map { Redaction.redacted($0) } as Any,
        "clock": clock,
        "bodyLimit": bodyLimit,
        "requests": requests,
      ],
      displayStyle: .struct)
  }
}
