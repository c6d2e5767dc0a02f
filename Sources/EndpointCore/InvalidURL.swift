/// A URL could not be built from what the endpoint was given.
public struct InvalidURL: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offending input: a URL string, a path, or a query item.
  public let input: String
  /// What was wrong with it.
  public let reason: String

  /// Creates the error.
  public init(input: String, reason: String) {
    self.input = input
    self.reason = reason
  }

  /// A sentence naming the input and the problem; user information and secret query items in
  /// the input are hidden (``Redaction/standard``).
  public var description: String {
    "Invalid URL \(String(reflecting: Redaction.standard.apply(toText: input))): \(reason)"
  }
}

extension InvalidURL: CustomReflectable {
  /// The stored properties with the input shown as ``description`` shows it, for `dump(_:)`, LLDB's
  /// `po` and failed test expectations.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "input": Redaction.standard.apply(toText: input),
        "reason": reason,
      ],
      displayStyle: .struct)
  }
}
