import EndpointPrimitives
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing a fixture file safely when several clients, in this process or others, record to
/// it at once: one writer at a time (an advisory lock on the file's directory), the new file
/// written beside the old one and renamed over it, so a reader never sees it torn.
enum FixtureFile {
  /// The files a re-recording (``RecordMode/reRecordAll``) of this process has already
  /// started again: later writers add to them instead of starting over.
  private static let restarted = Mutex<Set<String>>([])

  /// Whether a re-recording of `file` has already written it in this process.
  static func wasRestarted(_ file: URL) -> Bool {
    restarted.withVisibleLock { $0.contains(file.standardizedFileURL.path) }
  }

  /// Notes that a re-recording of `file` has written it: later writers add to it.
  static func markRestarted(_ file: URL) {
    _ = restarted.withVisibleLock { $0.insert(file.standardizedFileURL.path) }
  }

  /// Runs `body` while holding the lock of `file`'s directory, created if missing.
  static func withLock<Result>(_ file: URL, _ body: () throws -> Result) throws -> Result {
    let directory = file.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let descriptor = open(directory.path, O_RDONLY)
    guard descriptor >= 0 else { throw POSIXError(currentCode) }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw POSIXError(currentCode) }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Writes `data` to a new file beside `file` and renames it over `file`.
  static func replace(_ file: URL, with data: Data) throws {
    let temporary = file.deletingLastPathComponent()
      .appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      try data.write(to: temporary)
      guard rename(temporary.path, file.path) == 0 else { throw POSIXError(currentCode) }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }

  private static var currentCode: POSIXErrorCode {
    POSIXErrorCode(rawValue: errno) ?? .EIO
  }
}
