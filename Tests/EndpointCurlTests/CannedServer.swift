import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A loopback TCP server that answers every connection with the same bytes, for responses no
/// real HTTP server sends (conflicting lengths, a protocol that is not HTTP).
///
/// It reads the request head, writes `response`, and closes the connection.
final class CannedServer: Sendable {
  let port: Int
  private let listener: Int32
  private let stopped = Mutex(false)

  init(response: String) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw CannedServerError(reason: "socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw CannedServerError(reason: "bind or listen failed")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(listener, $0, &length)
      }
    }
    self.listener = listener
    port = Int(UInt16(bigEndian: address.sin_port))
    let bytes = Array(response.utf8)
    // Runs until the listener is closed, which makes accept fail.
    let thread = Thread {
      while true {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        Self.answer(connection, with: bytes)
      }
    }
    thread.start()
  }

  deinit {
    stop()
  }

  /// `http://127.0.0.1:port/`.
  var url: URL {
    URL(string: "http://127.0.0.1:\(port)/")!
  }

  func stop() {
    let wasStopped = stopped.withLock { stopped in
      defer { stopped = true }
      return stopped
    }
    if !wasStopped {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }
  }

  private static func answer(_ connection: Int32, with bytes: [UInt8]) {
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.ends(with: Array("\r\n\r\n".utf8)) {
      let count = recv(connection, &buffer, buffer.count, 0)
      if count <= 0 { break }
      head += buffer[0..<count]
    }
    _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    shutdown(connection, Int32(SHUT_WR))
    close(connection)
  }
}

struct CannedServerError: Error, CustomStringConvertible {
  var reason: String
  var description: String { "canned server: \(reason)" }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
