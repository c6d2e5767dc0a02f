import EndpointCurl
import Foundation
import Testing

/// Answers that are not valid HTTP fail with a clear error instead of passing as a response.
@Suite struct ResponseValidationTests {
  let client: CurlHTTPClient

  init() throws {
    client = try CurlHTTPClient()
  }

  @Test func conflictingContentLengthsAreAnError() async throws {
    let server = try CannedServer(
      response: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"
    )
    let error = try await #require(throws: TransportFailure.self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
      _ = try await body.collect(upTo: 1024)
    }
    #expect(error.kind == .malformedResponse)
    #expect(error.url == server.url)
  }

  @Test func aRepeatedIdenticalContentLengthIsAccepted() async throws {
    let server = try CannedServer(
      response: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"
    )
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
    #expect(response.status == 200)
    #expect(String(decoding: try await body.collect(upTo: 1024), as: UTF8.self) == "hello")
  }

  @Test func anAnswerThatIsNotHTTPIsAnError() async throws {
    let server = try CannedServer(response: "SSH-2.0-OpenSSH_9.2p1\r\nProtocol mismatch.\r\n")
    let error = try await #require(throws: TransportFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: server.url))
    }
    #expect(error.kind == .malformedResponse)
    #expect(!error.isTransient)
  }

  @Test func aBodyShorterThanItsLengthIsAConnectionLoss() async throws {
    let server = try CannedServer(
      response: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nonly this"
    )
    let error = try await #require(throws: TransportFailure.self) {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: server.url))
      _ = try await body.collect(upTo: 1024)
    }
    #expect(error.kind == .connectionLost)
    #expect(error.code == 18)
  }

  @Test func notModifiedWithAStrayLengthEndsWithoutABody() async throws {
    let server = try CannedServer(
      response: "HTTP/1.1 304 Not Modified\r\nContent-Length: 42\r\nETag: \"x\"\r\n\r\n"
    )
    let request = HTTPRequest(method: .get, url: server.url, timeout: .seconds(5))
    let (response, body) = try await client.send(request)
    #expect(response.status == 304)
    #expect(try await body.collect(upTo: 1024).isEmpty)
  }

  @Test func aURLThatIsNotHTTPIsRejectedBeforeSending() async throws {
    let url = try #require(URL(string: "ftp://127.0.0.1/file"))
    let error = try await #require(throws: InvalidRequest.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.kind == .url)
    #expect(error.reason.contains("http"))
  }
}
