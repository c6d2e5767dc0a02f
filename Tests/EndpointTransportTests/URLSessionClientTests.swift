import EndpointTransport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession` as an `HTTPClient`: the seeds' one-liner, on the SDK's safe path.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct URLSessionClientTests {
  @Test func sharedSessionCallsAnEndpoint() async throws {
    let endpoint = Endpoint(
      .get,
      url: try TestServers.httpbin.adding("/get?x=1"),
      parser: .data
    )
    let json = try jsonObject(try await URLSession.shared.call(endpoint))
    #expect(json["args"] as? [String: String] == ["x": "1"])
  }

  @Test func framingFieldsAreStrippedHereToo() async throws {
    let url = try TestServers.fault.adding("/echo")
    var request = HTTPRequest(method: .post, url: url, body: HTTPBody("abc"))
    try request.headerFields.append("99", for: "Content-Length")
    try request.headerFields.append("other.example", for: "Host")
    let (_, echo) = try await sendForJSON(URLSession.shared, request)
    let headers = try echoedHeaders(echo)
    #expect(headers.filter { $0.0 == "content-length" }.map(\.1) == ["3"])
    #expect(!headers.contains { $0 == ("host", "other.example") })
  }

  @Test func cancellationThrowsCancellationError() async throws {
    let session = URLSession(
      configuration: URLSessionHTTPClient.Configuration.defaultSessionConfiguration())
    let url = try TestServers.fault.adding("/silent")
    let task = Task { try await session.send(HTTPRequest(method: .get, url: url)) }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func requestTimeoutIsEnforcedAsADeadline() async throws {
    let url = try TestServers.fault.adding("/silent")
    let request = HTTPRequest(method: .get, url: url, timeout: .milliseconds(300))
    let (result, duration) = await elapsed { try await URLSession.shared.send(request) }
    let error = try #require(throws: TransportFailure.self) { try result.get() }
    #expect(error.kind == .deadlineExceeded)
    #expect(error.timeout == .milliseconds(300))
    #expect(duration < .seconds(10))  // the silent server would hold it for 120 s
  }

  @Test func aDeadlineRescuesAnAuthChallengeThatURLSessionWouldWaitOnForever() async throws {
    // Without the SDK's delegate, URLSession on Linux (before Swift 6.3.2) waits for a
    // credential forever; on Apple platforms the 401 comes back. Either way, never a hang.
    let url = try TestServers.fault.adding("/auth-challenge")
    let request = HTTPRequest(method: .get, url: url, timeout: .milliseconds(500))
    let session = URLSession(
      configuration: URLSessionHTTPClient.Configuration.defaultSessionConfiguration())
    let (result, duration) = await elapsed { try await session.send(request) }
    #expect(duration < .seconds(10))  // without the deadline it would wait forever
    switch result {
    case .success(let (response, _)): #expect(response.status == 401)
    case .failure(let error): #expect((error as? TransportFailure)?.kind == .deadlineExceeded)
    }
  }

  @Test func a307ThroughAPlainSessionShowsURLSessionsOwnRedirects() async throws {
    // A platform limit the configurable client fixes: URLSession follows redirects itself, and
    // on Linux it re-sends a 307 POST with an empty body.
    let url = try TestServers.httpbin.adding("/redirect-to?url=/anything&status_code=307")
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody("the body"))
    let (_, json) = try await sendForJSON(URLSession.shared, request)
    #expect(json["method"] as? String == "POST")
    #if os(Linux)
      #expect(json["data"] as? String == "")
    #else
      #expect(json["data"] as? String == "the body")
    #endif
    let (_, fixed) = try await sendForJSON(URLSessionHTTPClient(), request)
    #expect(fixed["data"] as? String == "the body")
  }
}
