import EndpointCore
import EndpointPrimitives
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A loopback HTTP/1.1 server in the test process that keeps the exact bytes it receives, for
/// tests of what reaches the wire: the request line and fields byte for byte, the body as
/// framed, and anything a client puts on the connection after a request.
///
/// Each request is read as RFC 9112 frames it (`Content-Length`, or `chunked`), recorded, and
/// answered by ``respond`` (by default `200` with the body `ok`) on the same keep-alive
/// connection. Bytes that follow a request on the connection are read as the next request, so a
/// smuggled request shows up as one more entry in ``requests``. Between a request's head and its
/// body, `afterHead` may write an interim answer (`100 Continue`) or a final one without reading
/// the body (``HeadAnswer``); an answer may repeat a chunk (``Answer/repeating(_:count:)``) to
/// serve a large body without holding it.
///
/// Its threads keep it alive until ``stop()``: call it when the test ends (`defer`).
public final class CaptureServer: Sendable {
  /// One request as received.
  public struct Request: Sendable {
    /// The request line and the field lines, up to and including the blank line.
    public var head: [UInt8]
    /// The body bytes as framed on the wire (chunk sizes and trailers included when chunked).
    public var framedBody: [UInt8]
    /// The body with chunked framing removed.
    public var body: [UInt8]
    /// The connection it came on (0 for the first connection accepted).
    public var connection: Int
    /// When the server had read the whole head.
    public var headReceived = ContinuousClock.now
    /// When the server had read the whole body (``headReceived`` when it read none).
    public var bodyReceived = ContinuousClock.now

    /// The head as text (Latin-1, so every byte shows).
    public var headText: String { String(decoding: head, as: UTF8.self) }

    /// The request line: `METHOD target HTTP/1.1`.
    public var requestLine: String {
      headText.components(separatedBy: "\r\n").first ?? ""
    }

    /// The field lines, in order, as `Name: value` text.
    public var fieldLines: [String] {
      Array(headText.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty })
    }

    /// The values of the fields named `name` (any case).
    public func values(of name: String) -> [String] {
      fieldLines.compactMap { line in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        guard line[..<colon].lowercased() == name.lowercased() else { return nil }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
  }

  /// The answer to one request: the bytes written back, and whether the connection then closes.
  public struct Answer: Sendable {
    /// The bytes written back.
    public var bytes: [UInt8]
    /// Whether the server closes the connection after writing them.
    public var closes: Bool

    /// Creates an answer.
    public init(bytes: [UInt8], closes: Bool = false) {
      self.bytes = bytes
      self.closes = closes
    }

    /// Creates an answer from text.
    public init(_ text: String, closes: Bool = false) {
      self.init(bytes: Array(text.utf8), closes: closes)
    }

    /// Bytes written again and again after ``bytes`` until the client goes away (or
    /// `endlessLimit` bytes): an endless body, trailer or header section.
    public var endless: [UInt8]?

    /// Bytes written ``repeatCount`` times after ``bytes`` (and before ``endless``): a large body
    /// of known length that the server never holds in memory.
    public var repeated: [UInt8]?
    /// How many times ``repeated`` is written.
    public var repeatCount = 0

    /// `200 OK` with a `Content-Length` body of `chunk` written `count` times.
    public static func repeating(_ chunk: [UInt8], count: Int) -> Answer {
      var answer = Answer("HTTP/1.1 200 OK\r\nContent-Length: \(chunk.count * count)\r\n\r\n")
      answer.repeated = chunk
      answer.repeatCount = count
      return answer
    }

    /// `200 OK` with the body `ok`.
    public static let ok = Answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")

    /// `head` (text), then `repeating` until the client goes away.
    public static func endless(_ head: String, repeating: String) -> Answer {
      var answer = Answer(head, closes: true)
      answer.endless = Array(repeating.utf8)
      return answer
    }
  }

  /// What the server does once a request's head has arrived, before it reads the body: how a
  /// server answers `Expect: 100-continue` (RFC 9110, section 10.1.1).
  public enum HeadAnswer: Sendable {
    /// Reads the body, then answers with ``CaptureServer/respond`` (a server that ignores the
    /// expectation).
    case readBody
    /// Writes `bytes` (an interim `100 Continue`), then reads the body and answers as usual.
    case interim([UInt8])
    /// Writes `answer` at once and reads no body: the request is recorded with an empty body,
    /// and whatever the client writes next on the connection is read as the next request (so
    /// a body sent after a final answer shows up as one more entry in ``requests``).
    case final(Answer)

    /// `HTTP/1.1 100 Continue`, then the body is read.
    public static let continue100 = HeadAnswer.interim(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
  }

  /// The most bytes an endless answer writes (a bound for a client that never stops reading).
  public static let endlessLimit = 2 << 30

  /// The port on 127.0.0.1 (or ::1).
  public let port: Int
  /// The loopback address listened on, as a URL writes it: `127.0.0.1` or `[::1]`.
  public let host: String
  private let listener: Int32
  private let state = Mutex(State())
  private let respond: @Sendable (Request) -> Answer
  private let afterHead: @Sendable (Request) -> HeadAnswer

  private struct State {
    var requests: [Request] = []
    var bytesByConnection: [[UInt8]] = []
    var stopped = false
    var listenerClosed = false
    var sockets: [Int32] = []
    var endlessBytesWritten = 0
  }

  /// Starts listening on a free port of 127.0.0.1, or of ::1 when `ipv6` is true.
  ///
  /// - Parameters:
  ///   - ipv6: whether to listen on the IPv6 loopback address; throws ``CaptureServerError``
  ///     where the machine has none.
  ///   - respond: the answer to each request (default: ``Answer/ok``).
  ///   - afterHead: what to do once a request's head (``Request/head`` only) has arrived,
  ///     before its body is read (default: ``HeadAnswer/readBody``).
  public init(
    ipv6: Bool = false,
    respond: @escaping @Sendable (Request) -> Answer = { _ in .ok },
    afterHead: @escaping @Sendable (Request) -> HeadAnswer = { _ in .readBody }
  ) throws {
    self.respond = respond
    self.afterHead = afterHead
    let listener = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw CaptureServerError(reason: "socket failed") }
    let boundPort: UInt16?
    if ipv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_addr = in6addr_loopback
      boundPort = Self.bindAndListen(listener, &address) { UInt16(bigEndian: $0.sin6_port) }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      boundPort = Self.bindAndListen(listener, &address) { UInt16(bigEndian: $0.sin_port) }
    }
    guard let boundPort else {
      close(listener)
      throw CaptureServerError(reason: "bind or listen failed")
    }
    self.listener = listener
    port = Int(boundPort)
    host = ipv6 ? "[::1]" : "127.0.0.1"
    // Runs until `stop()` shuts the listener down, which makes accept fail. Only this thread
    // closes the listener, once it no longer calls accept: were `stop()` to close it, its
    // number could be reused by another server's listener before this loop's next accept, which
    // would then take (and drop) a connection meant for that server.
    let thread = Thread { [self] in
      while true {
        let connection = accept(listener, nil, nil)
        if connection < 0 {
          if errno == EINTR || errno == ECONNABORTED { continue }
          break
        }
        let index = state.withVisibleLock { state -> Int? in
          guard !state.stopped else { return nil }
          state.bytesByConnection.append([])
          state.sockets.append(connection)
          return state.bytesByConnection.count - 1
        }
        guard let index else {
          close(connection)
          break
        }
        Thread { [self] in serve(connection, index: index) }.start()
      }
      state.withVisibleLock { state in
        state.listenerClosed = true
        close(listener)
      }
    }
    thread.start()
  }

  /// Binds `listener` to `address` (port 0: a free one), listens, and returns the port
  /// bound, or `nil` on failure.
  private static func bindAndListen<Address>(
    _ listener: Int32,
    _ address: inout Address,
    port: (Address) -> UInt16
  ) -> UInt16? {
    let size = socklen_t(MemoryLayout<Address>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) }
    }
    guard bound == 0, listen(listener, 64) == 0 else { return nil }
    var length = size
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    return named == 0 ? port(address) : nil
  }

  /// `http://127.0.0.1:port/` (or `http://[::1]:port/`).
  public var url: URL {
    URL(string: "http://\(host):\(port)/")!
  }

  /// The requests received so far, in the order they were read.
  public var requests: [Request] { state.withVisibleLock { $0.requests } }

  /// Every byte received so far, per connection, in the order connections were accepted.
  public var bytesByConnection: [[UInt8]] { state.withVisibleLock { $0.bytesByConnection } }

  /// How many bytes of endless answers (``Answer/endless``) were written in all: what the
  /// clients took before they went away, plus what the connections buffered.
  public var endlessBytesWritten: Int { state.withVisibleLock { $0.endlessBytesWritten } }

  /// How many bytes arrived in all.
  public var totalBytes: Int {
    state.withVisibleLock { $0.bytesByConnection.reduce(0) { $0 + $1.count } }
  }

  /// Waits until `count` requests have arrived, or `limit` passes.
  public func waitForRequests(_ count: Int, within limit: Duration = .seconds(5)) async throws {
    let start = ContinuousClock.now
    while requests.count < count, ContinuousClock.now - start < limit {
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Stops listening and closes every connection.
  public func stop() {
    // Under the lock: a connection's number is closed (and may be reused) only after it left
    // `sockets`, so this never shuts down a socket of someone else.
    state.withVisibleLock { state in
      guard !state.stopped else { return }
      state.stopped = true
      // The accept loop closes the listener; until then its number is still this server's.
      if !state.listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }
      for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }
  }

  private func serve(_ connection: Int32, index: Int) {
    var reader = Reader(connection: connection) { [self] bytes in
      state.withVisibleLock { $0.bytesByConnection[index] += bytes }
    }
    defer {
      state.withVisibleLock { state in
        state.sockets.removeAll { $0 == connection }
        close(connection)
      }
    }
    while var request = reader.readHead(connection: index) {
      let answer: Answer
      switch afterHead(request) {
      case .readBody:
        guard reader.readBody(of: &request) else { return }
        state.withVisibleLock { $0.requests.append(request) }
        answer = respond(request)
      case .interim(let bytes):
        guard Self.write(bytes, to: connection), reader.readBody(of: &request) else { return }
        state.withVisibleLock { $0.requests.append(request) }
        answer = respond(request)
      case .final(let final):
        state.withVisibleLock { $0.requests.append(request) }
        answer = final
      }
      guard write(answer, to: connection), !answer.closes else { return }
    }
  }

  /// Writes `answer`; false when the connection is gone or the answer was endless.
  private func write(_ answer: Answer, to connection: Int32) -> Bool {
    guard Self.write(answer.bytes, to: connection) else { return false }
    if let repeated = answer.repeated {
      for _ in 0..<answer.repeatCount {
        guard Self.write(repeated, to: connection) else { return false }
      }
    }
    if let endless = answer.endless, !endless.isEmpty {
      var written = 0
      while written < Self.endlessLimit {
        let count = endless.withUnsafeBytes {
          send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if count <= 0 { return false }
        written += count
        state.withVisibleLock { $0.endlessBytesWritten += count }
      }
    }
    return true
  }

  /// Writes every byte of `bytes`; false when the connection is gone.
  private static func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = send(
          connection, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
  }

  /// Buffered reads of one connection.
  private struct Reader {
    let connection: Int32
    let record: ([UInt8]) -> Void
    var buffer: [UInt8] = []

    init(connection: Int32, record: @escaping ([UInt8]) -> Void) {
      self.connection = connection
      self.record = record
    }

    mutating func fill() -> Bool {
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = recv(connection, &chunk, chunk.count, 0)
      guard count > 0 else { return false }
      let bytes = Array(chunk[0..<count])
      record(bytes)
      buffer += bytes
      return true
    }

    mutating func readLine() -> [UInt8]? {
      while true {
        if let end = buffer.firstRange(of: [0x0D, 0x0A]) {
          let line = Array(buffer[..<end.upperBound])
          buffer.removeFirst(end.upperBound)
          return line
        }
        guard buffer.count < 1 << 20, fill() else { return nil }
      }
    }

    mutating func read(_ count: Int) -> [UInt8]? {
      while buffer.count < count {
        guard fill() else { return nil }
      }
      let bytes = Array(buffer[..<count])
      buffer.removeFirst(count)
      return bytes
    }

    /// Reads the next request's head; `nil` when the connection ends first.
    mutating func readHead(connection index: Int) -> Request? {
      var head: [UInt8] = []
      while true {
        guard let line = readLine() else { return nil }
        head += line
        if line == [0x0D, 0x0A] { break }
      }
      let now = ContinuousClock.now
      return Request(
        head: head, framedBody: [], body: [], connection: index, headReceived: now,
        bodyReceived: now)
    }

    /// Reads the body `request`'s head frames into it; false when the connection ends first.
    mutating func readBody(of request: inout Request) -> Bool {
      defer { request.bodyReceived = ContinuousClock.now }
      if let length = request.values(of: "Content-Length").first.flatMap({ Int($0) }) {
        guard let body = read(length) else { return false }
        request.framedBody = body
        request.body = body
      } else if request.values(of: "Transfer-Encoding").contains(where: {
        $0.lowercased().contains("chunked")
      }) {
        while true {
          guard let sizeLine = readLine() else { return false }
          request.framedBody += sizeLine
          let text = String(decoding: sizeLine.dropLast(2), as: UTF8.self)
          guard let size = Int(text.split(separator: ";").first ?? "", radix: 16) else {
            return false
          }
          if size == 0 {
            while let trailer = readLine() {
              request.framedBody += trailer
              if trailer == [0x0D, 0x0A] { break }
            }
            break
          }
          guard let data = read(size + 2) else { return false }
          request.framedBody += data
          request.body += data.dropLast(2)
        }
      }
      return true
    }
  }
}

/// The capture server could not start.
public struct CaptureServerError: Error, CustomStringConvertible {
  /// What failed.
  public var reason: String
  /// `capture server: reason`.
  public var description: String { "capture server: \(reason)" }
}
