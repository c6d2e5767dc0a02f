/// A `next` link the paginator does not follow: not a URL, not `http`/`https`, or to another
/// origin when that was not allowed.
public struct PageLinkRefused: Error, Hashable, Sendable, CustomStringConvertible {
  /// The link, with credentials redacted.
  public let link: String
  /// Why it is not followed.
  public let reason: String

  /// Creates the error.
  public init(link: String, reason: String) {
    self.link = link
    self.reason = reason
  }

  /// A sentence naming the link and the reason.
  public var description: String {
    "The next page's link \(Redaction.standard.apply(toText: link)) is not followed: \(reason)"
  }
}

extension PageLinkRefused: CustomReflectable {
  /// The stored properties with the link shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "link": Redaction.standard.apply(toText: link),
        "reason": reason,
      ],
      displayStyle: .struct)
  }
}
