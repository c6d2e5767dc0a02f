import EndpointCore
import EndpointTestSupport
import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// A hostile server costs the caller an error and bounded memory, never a hang: endless redirect
/// bodies and trailers, lengths that are not plain numbers, answered by a loopback server that
/// sends exactly the bytes each test gives it.
@Suite struct HostileEdgeTests {
  /// 4 KiB chunks of `a`, chunked framing.
  static let chunk = "1000\r\n" + String(repeating: "a", count: 4096) + "\r\n"

  @Test(arguments: [TransportUnderTest.curl])
  func anEndlessRedirectBodyCountsAgainstTheSizeLimit(transport: TransportUnderTest) async throws {
    let server = try CaptureServer { _ in
      .endless(
        "HTTP/1.1 302 Found\r\nLocation: /next\r\nTransfer-Encoding: chunked\r\n\r\n",
        repeating: Self.chunk)
    }
    defer { server.stop() }
    let client = try transport.makeClient(
      idleTimeout: .seconds(5), deadline: .seconds(30), maximumResponseSize: 16 << 10)
    let start = ContinuousClock.now
    let failure = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: server.url))
    }
    #expect(failure?.kind == .responseTooLarge)
    #expect(ContinuousClock.now - start < .seconds(20))
  }

  @Test(arguments: [TransportUnderTest.curl])
  func anEndlessRedirectBodyIsLeftUnreadAndFollowed(transport: TransportUnderTest) async throws {
    let server = try CaptureServer { request in
      request.requestLine.hasPrefix("GET /next")
        ? .ok
        : .endless(
          "HTTP/1.1 302 Found\r\nLocation: /next\r\nTransfer-Encoding: chunked\r\n\r\n",
          repeating: Self.chunk)
    }
    defer { server.stop() }
    // No size limit and no deadline: the client's defaults.
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let start = ContinuousClock.now
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 64) == Data("ok".utf8))
    // Left unread: what the client took before it went away, not the 2 GiB the server would
    // write to a reader. The time bound only tells an unread body from a hang.
    #expect(server.endlessBytesWritten < 64 << 20, "\(server.endlessBytesWritten) bytes")
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test func aStormOfEndlessRedirectsEndsAtTheLimitOverCurl() async throws {
    let server = try CaptureServer { _ in
      .endless(
        "HTTP/1.1 302 Found\r\nLocation: /next\r\nTransfer-Encoding: chunked\r\n\r\n",
        repeating: Self.chunk)
    }
    defer { server.stop() }
    let client = try TransportUnderTest.curl.makeClient(redirects: .follow(upTo: 5))
    let start = ContinuousClock.now
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: server.url))
    }
    #expect(error?.kind == .tooManyRedirects)
    #expect(error?.limit == 5)
    #expect(server.endlessBytesWritten < 64 << 20, "\(server.endlessBytesWritten) bytes")
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  static let badLengths = [
    "Content-Length: 0x5", "Content-Length: +5", "Content-Length: 1 0", "Content-Length: 5, 10",
    "Content-Length: 5\r\nContent-Length: 10", "Content-Length: -1",
    "Content-Length: 18446744073709551616", "Content-Length: 5e0",
  ]

  @Test(arguments: badLengths)
  func aLengthThatIsNotOnePlainNumberFailsOverCurl(field: String) async throws {
    let server = try CaptureServer { _ in
      .init("HTTP/1.1 200 OK\r\n\(field)\r\n\r\nhellohello", closes: true)
    }
    defer { server.stop() }
    let client = try TransportUnderTest.curl.makeClient(idleTimeout: .seconds(2))
    await #expect(throws: (any Error).self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
      _ = try await body.collect(upTo: 1 << 20)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func repeatedEqualLengthsAreOneLength(transport: TransportUnderTest) async throws {
    let server = try CaptureServer { _ in
      .init("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello")
    }
    defer { server.stop() }
    let client = try transport.makeClient()
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 64) == Data("hello".utf8))
  }
}

/// The size limit counts the bytes the caller gets: a compressed body is measured decoded.
/// A hostile server's endless head or trailers cost the caller an error and bounded memory.
///
/// The bound is on the resident memory of the whole test process, so `scripts/test.sh` runs this
/// suite on its own, after the others: tests running beside it would count against its bound.
/// Its tests run one at a time for the same reason.
@Suite(.serialized) struct BoundedMemoryTests {
  /// The resident memory of this process (or, with `field` `VmHWM:`, its peak), in bytes
  /// (Linux).
  static func residentBytes(field: String = "VmRSS:") -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
  }

  /// URLSession on Linux crashes the process on any trailer field (listed in "The transport
  /// on Linux"), so this runs over curl.
  @Test func anEndlessTrailerFailsWithBoundedMemory() async throws {
    let server = try CaptureServer { _ in
      .endless(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n",
        repeating: "X-Trailer: " + String(repeating: "t", count: 1000) + "\r\n")
    }
    defer { server.stop() }
    let client = try TransportUnderTest.curl.makeClient(idleTimeout: .seconds(2))
    let before = Self.residentBytes()
    let start = ContinuousClock.now
    await #expect(throws: (any Error).self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
      _ = try await body.collect(upTo: 1 << 20)
    }
    #expect(ContinuousClock.now - start < .seconds(10))
    // About 4 MiB here; unbounded, the trailer grew the process by gigabytes.
    #expect(Self.residentBytes() - before < 64 << 20)
  }

  @Test func anEndlessHeadFailsWithBoundedMemoryOverCurl() async throws {
    let server = try CaptureServer { _ in
      .endless(
        "HTTP/1.1 200 OK\r\n", repeating: "X-Flood: " + String(repeating: "f", count: 500) + "\r\n")
    }
    defer { server.stop() }
    let client = try TransportUnderTest.curl.makeClient(idleTimeout: .seconds(2))
    let before = Self.residentBytes()
    let start = ContinuousClock.now
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: server.url))
    }
    #expect(error?.description.contains("head passed") == true, "\(String(describing: error))")
    #expect(ContinuousClock.now - start < .seconds(10))
    #expect(Self.residentBytes() - before < 64 << 20)
  }
}

extension BoundedMemoryTests {
  /// Resets the process's peak resident memory (`VmHWM`) to what it holds now (Linux: writing
  /// `5` to `/proc/self/clear_refs`), and returns that.
  static func resetPeak() throws -> Int {
    let handle = try FileHandle(forWritingTo: URL(filePath: "/proc/self/clear_refs"))
    try handle.write(contentsOf: Data("5".utf8))
    try handle.close()
    return residentBytes(field: "VmHWM:")
  }

  /// A download writes its body to the file as it arrives: 256 MiB served with a
  /// `Content-Length` reach the file whole while the process grows by far less than the body
  /// at its peak.
  @Test(arguments: TransportUnderTest.allCases)
  func aLargeDownloadNeverSitsInMemory(transport: TransportUnderTest) async throws {
    let chunk = (0..<(64 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
    let count = 4096
    let size = chunk.count * count
    let server = try CaptureServer { _ in .repeating(chunk, count: count) }
    defer { server.stop() }
    let client = try transport.makeClient(idleTimeout: .seconds(30))
    let file = FileManager.default.temporaryDirectory.appending(path: "large-\(UUID()).bin")
    defer { try? FileManager.default.removeItem(at: file) }
    let before = try Self.resetPeak()
    let start = ContinuousClock.now
    let response = try await client.download(
      HTTPRequest(method: .get, url: server.url.appending(path: "large")), to: file)
    let elapsed = ContinuousClock.now - start
    let growth = Self.residentBytes(field: "VmHWM:") - before
    #expect(response.status == 200)
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.size] as? Int) == size)
    let handle = try FileHandle(forReadingFrom: file)
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(size - chunk.count))
    #expect(try handle.readToEnd() == Data(chunk))
    // Measured alone (3 runs): URLSession 7.3–7.9 MiB, curl 0.3–0.4 MiB, in 0.3–0.8 s.
    #expect(growth < 64 << 20, "\(transport): the peak grew by \(growth >> 10) KiB in \(elapsed)")
  }
}

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct DecodedSizeLimitTests {
  @Test(arguments: TransportUnderTest.allCases)
  func theSizeLimitCountsDecodedBytes(transport: TransportUnderTest) async throws {
    let url = try TestServers.httpbin.adding("/gzip")
    let (head, body) = try await transport.makeClient().send(HTTPRequest(method: .get, url: url))
    let decoded = try await body.collect(upTo: 1 << 20)
    #expect(head.headerFields["Content-Encoding"] == "gzip")
    let compressed = Int(head.headerFields["Content-Length"] ?? "") ?? 0
    // The limit lies between the compressed and the decoded size.
    try #require(compressed > 0 && compressed < decoded.count - 1)
    let limited = try transport.makeClient(maximumResponseSize: decoded.count - 1)
    let failure = await #expect(throws: TransportFailure.self) {
      let (_, body) = try await limited.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 20)
    }
    #expect(failure?.kind == .responseTooLarge)
  }
}
