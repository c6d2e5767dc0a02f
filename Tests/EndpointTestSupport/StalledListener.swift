import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A loopback TCP listener that never accepts, with its one-place backlog filled: the kernel
/// drops every further SYN, so a connect to it waits until the client gives up (nothing else on
/// loopback makes a connect hang: a closed port refuses at once).
public final class StalledListener: @unchecked Sendable {
  /// The listener's port on 127.0.0.1.
  public let port: UInt16
  private var descriptors: [Int32] = []

  /// Opens the listener and fills its backlog.
  public init() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EMFILE) }
    descriptors.append(listener)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && listen(listener, 0) == 0
          && getsockname(listener, pointer, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    port = UInt16(bigEndian: address.sin_port)
    // Backlog 0 holds one finished connection; the others' SYNs are dropped from then on.
    for _ in 0..<3 {
      let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      guard filler >= 0 else { continue }
      descriptors.append(filler)
      _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    usleep(100_000)
  }

  /// Closes the listener and the connections that fill it.
  public func close() {
    for descriptor in descriptors { _ = Glibc.close(descriptor) }
    descriptors = []
  }

  /// The URL of `path` on the listener.
  public func url(_ path: String = "/") -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }
}
