/// A request's ``RequestOptions`` hold a setting no transfer can use; nothing was sent.
public struct InvalidRequestOption: Error, Hashable, Sendable, CustomStringConvertible {
  /// The setting's name, as in ``RequestOptions``.
  public let name: String
  /// The value it held.
  public let value: String
  /// Why it cannot be used, and what to write instead.
  public let reason: String

  /// Creates the error.
  ///
  /// - Parameters:
  ///   - name: the setting's name.
  ///   - value: the value it held.
  ///   - reason: why it cannot be used.
  public init(name: String, value: String, reason: String) {
    self.name = name
    self.value = value
    self.reason = reason
  }

  /// A sentence naming the setting, its value and the reason.
  public var description: String {
    "Invalid request option \(name) = \(value): \(reason)"
  }
}
