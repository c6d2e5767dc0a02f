import EndpointCore
import EndpointPrimitives
import Synchronization

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

/// The file a download is written to, on both transports: a hidden partial file beside the
/// destination, renamed over the destination when the body is complete and deleted on any
/// failure, so no partial or temporary file is ever left behind.
///
/// Writes come from the transport's callbacks while a timeout or a cancellation may discard the
/// file from another thread, so every operation takes the lock (uncontended on the curl loop,
/// where all three happen on one thread).
package final class DownloadFile: Sendable {
  package let destination: URL
  package let partialURL: URL
  private let descriptor: Mutex<Int32>

  package init(destination: URL) throws(TransportFailure) {
    self.destination = destination
    let directory = destination.deletingLastPathComponent()
    partialURL = directory.appendingPathComponent(
      ".\(destination.lastPathComponent).\(UUID().uuidString).partial"
    )
    let fd = open(partialURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw TransportFailure.downloadFile(destination: destination, reason: Self.lastError())
    }
    descriptor = Mutex(fd)
  }

  deinit {
    discard()
  }

  /// Appends `count` bytes at `bytes`; a discarded file ignores them.
  package func write(_ bytes: UnsafeRawPointer, count: Int) throws(TransportFailure) {
    let failure: String? = descriptor.withVisibleLock { fd in
      guard fd >= 0 else { return nil }
      var offset = 0
      while offset < count {
        let written = posixWrite(fd, bytes + offset, count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return Self.lastError()
        }
        offset += written
      }
      return nil
    }
    if let failure {
      throw TransportFailure.downloadFile(destination: destination, reason: failure)
    }
  }

  /// Appends `data`; a discarded file ignores it.
  package func write(_ data: Data) throws(TransportFailure) {
    guard !data.isEmpty else { return }
    let failure = data.withUnsafeBytes { buffer -> TransportFailure? in
      do throws(TransportFailure) {
        try write(buffer.baseAddress!, count: buffer.count)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Closes the file and moves it to the destination, replacing any file there.
  package func commit() throws(TransportFailure) {
    let failure: String? = descriptor.withVisibleLock { fd in
      guard fd >= 0 else { return "the download was already discarded" }
      let closed = close(fd)
      fd = -1
      if closed != 0 { return Self.lastError() }
      if rename(partialURL.path, destination.path) != 0 { return Self.lastError() }
      return nil
    }
    if let failure {
      unlink(partialURL.path)
      throw TransportFailure.downloadFile(destination: destination, reason: failure)
    }
  }

  /// Closes and deletes the partial file; safe to call more than once, from any thread.
  package func discard() {
    descriptor.withVisibleLock { fd in
      guard fd >= 0 else { return }
      close(fd)
      fd = -1
      unlink(partialURL.path)
    }
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
