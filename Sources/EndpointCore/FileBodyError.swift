#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A file body could not be opened or read.
public struct FileBodyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file.
  public let fileURL: URL
  /// What went wrong, such as "no such file".
  public let reason: String

  /// Creates the error.
  public init(fileURL: URL, reason: String) {
    self.fileURL = fileURL
    self.reason = reason
  }

  /// A sentence naming the file and the problem.
  public var description: String {
    "Cannot read body file \(fileURL.path): \(reason)"
  }
}
