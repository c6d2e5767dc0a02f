import EndpointCurl
import EndpointKernel
import Foundation
import Testing

@testable import EndpointTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Answers that are not a valid HTTP response fail the request with an error named for what
/// happened, on every transport; never a made-up 200.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct HostileServerTests {
  private func failureOf(_ transport: TransportUnderTest, _ path: String) async throws -> any Error
  {
    let client = try transport.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding(path)
    do {
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      let bytes = try await body.collect(upTo: 1 << 20)
      Issue.record("\(path) gave \(response.status) with \(bytes.count) bytes, not an error")
      return CancellationError()
    } catch {
      return error
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func conflictingContentLengthsFailTheResponse(transport: TransportUnderTest) async throws {
    let repeated = try await failureOf(transport, "/content-length?value=5&repeat=10")
    let listed = try await failureOf(transport, "/content-length?value=5,%2010")
    if transport == .urlSession {
      #expect((repeated as? TransportFailure)?.kind == .malformedResponse, "\(repeated)")
      #expect((listed as? TransportFailure)?.kind == .malformedResponse, "\(listed)")
      #expect("\(listed)".contains("Content-Length"))
    }
  }

  // URLSession only: CurlHTTPClient still reads these as libcurl does (a leading number), until
  // it parses Content-Length with EndpointCore's ContentLength too.
  @Test(arguments: ["0x5", "%2B5", "1%200", "99999999999999999999"])
  func aContentLengthThatIsNotANumberFailsTheResponse(value: String) async throws {
    let error = try await failureOf(.urlSession, "/content-length?value=\(value)")
    #expect((error as? TransportFailure)?.kind == .malformedResponse, "\(error)")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aSwitchOfProtocolsToAPlainGETIsAnError(transport: TransportUnderTest) async throws {
    let error = try await failureOf(transport, "/switching-protocols")
    if transport == .urlSession {
      let refusal = try #require(error as? TransportFailure, "\(error)")
      #expect(refusal.kind == .malformedResponse)
      #expect(refusal.description.contains("switched protocols to \"websocket\""))
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anAnswerWithoutAStatusLineIsAnErrorNeverA200(transport: TransportUnderTest) async throws {
    let error = try await failureOf(transport, "/no-status")
    #expect(!(error is CancellationError))
  }

  @Test func anUnreadableStatusLineIsNamedAsSuchNotAsAnUnsupportedURL() async throws {
    let error = try await failureOf(.urlSession, "/bad-status")
    let malformed = try #require(error as? TransportFailure, "\(error)")
    #expect(malformed.kind == .malformedResponse)
    #expect(malformed.description.contains("status line"))
  }

  @Test func theSessionsOwnConformanceRefusesTheSameHeads() async throws {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let conflicting = try TestServers.fault.adding("/content-length?value=5&repeat=10")
    let switching = try TestServers.fault.adding("/switching-protocols")
    let first = await failure {
      try await session.send(HTTPRequest(method: .get, url: conflicting))
    }
    #expect(
      (first as? TransportFailure)?.kind == .malformedResponse, "\(String(describing: first))")
    let second = await failure { try await session.send(HTTPRequest(method: .get, url: switching)) }
    #expect(
      (second as? TransportFailure)?.kind == .malformedResponse, "\(String(describing: second))")
  }
}

/// What crashes Foundation's URLSession on Linux (see "The transport on Linux"), through curl:
/// these never run against URLSession, which would end the test process.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CurlOnlyHostileServerTests {
  private func send(_ path: String) async throws -> (HTTPResponse, Data) {
    let client = try TransportUnderTest.curl.makeClient(idleTimeout: .seconds(10))
    let url = try TestServers.fault.adding(path)
    let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
    return (response, try await body.collect(upTo: 1 << 20))
  }

  @Test func aChunkedBodyWithATrailerArrivesWhole() async throws {
    let (response, body) = try await send("/chunked-trailer")
    #expect(response.status == 200)
    #expect(body == Data("hello".utf8))
  }

  @Test func aHeadCutOffBeforeItsEndIsAnError() async throws {
    await #expect(throws: (any Error).self) { try await send("/cut-head") }
  }

  @Test func aContentLengthJustBelowTwoToTheSixtyThirdIsAnError() async throws {
    await #expect(throws: (any Error).self) {
      try await send("/content-length?value=9223372036854775807")
    }
  }
}
