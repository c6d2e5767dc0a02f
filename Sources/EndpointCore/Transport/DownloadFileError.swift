#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A download could not be written to its file or moved to its destination.
public struct DownloadFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Where the body was to be saved.
  public let destination: URL
  /// What went wrong, such as "No such file or directory".
  public let reason: String

  /// Creates the error.
  public init(destination: URL, reason: String) {
    self.destination = destination
    self.reason = reason
  }

  /// A sentence naming the file and the problem.
  public var description: String {
    "Cannot save the download to \(destination.path): \(reason)"
  }
}
