import Foundation
import Testing

@testable import EndpointTransport

/// A streamed body must give exactly the length it declares, through either client.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct BodyLengthTests {
  private struct Pieces: AsyncSequence, Sendable {
    typealias Element = Data
    let pieces: [Data]

    func makeAsyncIterator() -> Iterator {
      Iterator(pieces: pieces)
    }

    struct Iterator: AsyncIteratorProtocol {
      var pieces: [Data]
      var index = 0

      mutating func next() async throws -> Data? {
        guard index < pieces.count else { return nil }
        defer { index += 1 }
        return pieces[index]
      }
    }
  }

  @Test(arguments: TransportUnderTest.allCases, [(40, 3), (60, 2)] as [(Int, Int)])
  func aStreamThatMissesItsDeclaredLengthFails(
    transport: TransportUnderTest,
    shape: (pieceSize: Int, pieces: Int)
  ) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    let pieces = Array(
      repeating: Data(repeating: 0x61, count: shape.pieceSize), count: shape.pieces)
    // 120 bytes against a declared 100: too long; 80 against 100: too short.
    let request = HTTPRequest(
      method: .post, url: url, body: HTTPBody(Pieces(pieces: pieces), length: 100))
    let error = try await #require(throws: TransportFailure.self) {
      _ = try await client.send(request)
    }
    #expect(error.kind == .bodyLengthMismatch)
    #expect(error.declaredLength == 100)
    #expect(error.url == url)
    let total = Int64(shape.pieceSize * shape.pieces)
    if total < 100 {
      #expect(error.byteCount == total)
      #expect(error.description.contains("ended after \(total) bytes"))
    } else {
      #expect((error.byteCount ?? 0) > 100)
      #expect(error.description.contains("gave at least"))
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aStreamOfExactlyItsDeclaredLengthIsSent(transport: TransportUnderTest) async throws {
    let client = try transport.makeClient()
    let url = try TestServers.fault.adding("/echo")
    let pieces = Array(repeating: Data(repeating: 0x62, count: 25), count: 4)
    let request = HTTPRequest(
      method: .post, url: url, body: HTTPBody(Pieces(pieces: pieces), length: 100))
    let (response, echo) = try await sendForJSON(client, request)
    #expect(response.status == 200)
    #expect(try echoedBody(echo) == Data(repeating: 0x62, count: 100))
  }
}
