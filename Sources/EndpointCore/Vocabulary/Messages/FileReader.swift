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

/// Reads a file body in chunks with plain POSIX calls (no FileHandle in FoundationEssentials).
final class FileReader {
  static let chunkSize = 64 * 1024

  private let url: URL
  private var descriptor: Int32 = -1
  private var finished = false

  init(url: URL) {
    self.url = url
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// The size of the regular file at `url` now.
  ///
  /// - Throws: ``InvalidRequest`` (`.body`) when it is not a file URL, cannot be read or is not a
  ///   regular file.
  static func size(of url: URL) throws(InvalidRequest) -> Int64 {
    guard url.isFileURL else {
      throw InvalidRequest.unreadableBodyFile(url, reason: "not a file URL")
    }
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      throw InvalidRequest.unreadableBodyFile(url, reason: String(cString: strerror(errno)))
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw InvalidRequest.unreadableBodyFile(url, reason: "not a regular file")
    }
    return Int64(info.st_size)
  }

  func next() throws -> Data? {
    if finished { return nil }
    if descriptor < 0 {
      descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw InvalidRequest.unreadableBodyFile(url, reason: String(cString: strerror(errno)))
      }
    }
    var chunk = Data(count: FileReader.chunkSize)
    var count: Int
    repeat {
      count = chunk.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress, buffer.count)
      }
    } while count < 0 && errno == EINTR
    if count < 0 {
      throw InvalidRequest.unreadableBodyFile(url, reason: String(cString: strerror(errno)))
    }
    if count == 0 {
      finished = true
      close(descriptor)
      descriptor = -1
      return nil
    }
    chunk.count = count
    return chunk
  }
}
