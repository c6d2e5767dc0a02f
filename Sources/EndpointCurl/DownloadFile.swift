#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a download is written to: a hidden partial file beside the destination, renamed
/// over the destination when the body is complete and deleted on any failure, so no partial or
/// temporary file is ever left behind.
///
/// Used only on the client's loop thread.
final class DownloadFile {
  let destination: URL
  private let partialPath: String
  private var descriptor: Int32

  init(destination: URL) throws(DownloadFileError) {
    self.destination = destination
    let directory = destination.deletingLastPathComponent()
    partialPath =
      directory.appendingPathComponent(
        ".\(destination.lastPathComponent).\(UUID().uuidString).partial"
      ).path
    descriptor = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw DownloadFileError(destination: destination, reason: Self.lastError())
    }
  }

  deinit {
    discard()
  }

  /// Appends `count` bytes at `bytes`.
  func write(_ bytes: UnsafeRawPointer, count: Int) throws(DownloadFileError) {
    guard descriptor >= 0 else { return }
    var offset = 0
    while offset < count {
      let written = posixWrite(descriptor, bytes + offset, count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw DownloadFileError(destination: destination, reason: Self.lastError())
      }
      offset += written
    }
  }

  /// Closes the file and moves it to the destination, replacing any file there.
  func commit() throws(DownloadFileError) {
    guard descriptor >= 0 else {
      throw DownloadFileError(
        destination: destination,
        reason: "the download was already discarded"
      )
    }
    let closed = close(descriptor)
    descriptor = -1
    var failure: String?
    if closed != 0 {
      failure = Self.lastError()
    } else if rename(partialPath, destination.path) != 0 {
      failure = Self.lastError()
    }
    if let failure {
      unlink(partialPath)
      throw DownloadFileError(destination: destination, reason: failure)
    }
  }

  /// Closes and deletes the partial file; safe to call more than once.
  func discard() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
    unlink(partialPath)
  }

  private static func lastError() -> String {
    String(cString: strerror(errno))
  }
}

/// `write(2)`, named apart from ``DownloadFile/write(_:count:)``.
@inline(__always)
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
