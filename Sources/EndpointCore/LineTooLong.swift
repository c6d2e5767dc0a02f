/// A line of a body, or a server-sent event, grew past the limit of the reader that read it.
///
/// ``HTTPBody/lines`` and ``HTTPBody/serverSentEvents`` hold a line (or an event's data) in
/// memory until it ends, so a server that never ends one would otherwise cost any amount of
/// memory. Raise the limit where longer lines are expected:
///
/// ```swift
/// for try await line in body.lines(maximumLength: 16 << 20) { … }
/// ```
public struct LineTooLong: Error, Hashable, Sendable, CustomStringConvertible {
  /// What grew too long.
  public enum Kind: String, Hashable, Sendable {
    /// A line of ``HTTPBody/lines``.
    case line
    /// A line or the data of one event of ``HTTPBody/serverSentEvents``.
    case serverSentEvent = "server-sent event"
  }

  /// What grew too long.
  public let kind: Kind
  /// The limit in bytes.
  public let limit: Int

  /// Creates the error.
  public init(kind: Kind, limit: Int) {
    self.kind = kind
    self.limit = limit
  }

  /// A sentence naming the limit.
  public var description: String {
    "A \(kind.rawValue) of the response body is longer than the limit of \(limit) bytes"
  }
}
