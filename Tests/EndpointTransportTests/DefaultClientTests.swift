import EndpointCurl
import EndpointDefaultClient
import EndpointTransport
import Foundation
import Testing

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct DefaultClientTests {
  @Test func theDefaultClientIsCurlOnLinuxWhenLibcurlLoads() async throws {
    let client = DefaultHTTPClient.make(idleTimeout: .seconds(5))
    #if os(Linux)
      let curlLoads = (try? CurlHTTPClient()) != nil
      #expect((client.base is CurlHTTPClient) == curlLoads)
      #expect((client.base is URLSessionHTTPClient) == !curlLoads)
    #else
      #expect(client.base is URLSessionHTTPClient)
    #endif
    let url = try TestServers.fault.adding("/echo")
    let (response, body) = try await client.with([]).send(HTTPRequest(method: .get, url: url))
    #expect(response.status == 200)
    #expect(try await body.collect(upTo: 1 << 20).count > 0)
  }

  @Test func theTransportIsNamedAfterItsClientType() async throws {
    let curl = DefaultHTTPClient.choosing(
      curl: .success(try CurlHTTPClient()),
      session: {
        URLSessionHTTPClient()
      })
    let session = DefaultHTTPClient.choosing(curl: nil, session: { URLSessionHTTPClient() })
    #expect("\(type(of: curl.base))" == "CurlHTTPClient")
    #expect("\(type(of: session.base))" == "URLSessionHTTPClient")
    await curl.shutdown()
    await session.shutdown()
  }

  @Test func aFallbackToURLSessionSaysWhy() async throws {
    let missing = TransportFailure(
      .libraryUnavailable, message: "libcurl is unavailable: cannot load libcurl.so.4",
      isTransient: false)
    let client = DefaultHTTPClient.choosing(
      curl: .failure(missing), session: { URLSessionHTTPClient() })
    #expect(client.base is URLSessionHTTPClient)
    #expect(client.fallbackReason == missing)
    #expect(client.fallbackReason?.kind == .libraryUnavailable)
    await client.shutdown()
  }

  @Test func thePreferredTransportHasNoFallbackReason() async throws {
    let client = DefaultHTTPClient.make()
    #if os(Linux)
      #expect((client.fallbackReason == nil) == (client.base is CurlHTTPClient))
    #else
      #expect(client.fallbackReason == nil)
    #endif
    await client.shutdown()
    let url = try TestServers.fault.adding("/echo")
    let error = await #expect(throws: TransportFailure.self) {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error?.kind == .shutDown)
  }
}
