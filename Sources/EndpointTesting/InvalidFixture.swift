/// A fixture file or HAR document could not be read.
public struct InvalidFixture: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file's path, when it came from a file.
  public let file: String?
  /// What is wrong with it.
  public let reason: String

  /// Creates the error.
  public init(file: String?, reason: String) {
    self.file = file
    self.reason = reason
  }

  /// A sentence naming the file and the problem.
  public var description: String {
    if let file { return "The fixture \(file) cannot be used: \(reason)" }
    return "The fixture cannot be used: \(reason)"
  }
}
