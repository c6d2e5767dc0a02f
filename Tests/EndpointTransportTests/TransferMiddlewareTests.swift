import EndpointCore
import EndpointPrimitives
import EndpointTestSupport
import Foundation
import Synchronization
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// Downloads and uploads through a transport wrapped in middleware reach the server with what
/// the middleware added, on both clients.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct TransferMiddlewareTests {
  private func stamped(_ client: some HTTPTransferClient) -> some HTTPTransferClient {
    client.with(
      ClosureMiddleware { request, next in
        var request = request
        try request.headerFields.set("through-middleware", for: "X-Stamp")
        return try await next(request)
      })
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDownloadPassesTheMiddleware(transport: TransportUnderTest) async throws {
    let client = stamped(try transport.makeClient())
    let file = FileManager.default.temporaryDirectory.appending(path: "mw-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let endpoint = Endpoint<Data>(
      .get, url: try TestServers.httpbin.adding("/headers"), parser: .data)
    let response = try await client.download(endpoint, to: file)
    #expect(response.status == 200)
    #expect(try String(contentsOf: file, encoding: .utf8).contains("through-middleware"))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUploadPassesTheMiddleware(transport: TransportUnderTest) async throws {
    let client = stamped(try transport.makeClient())
    let endpoint = Endpoint<Data>(
      .post, url: try TestServers.httpbin.adding("/post"),
      payload: .data(Data("hello".utf8), contentType: "text/plain"), parser: .data)
    let body = try await client.upload(endpoint) { _ in }
    #expect(String(decoding: body, as: UTF8.self).contains("through-middleware"))
  }

  private func wrapped(
    _ client: some HTTPTransferClient,
    _ middleware: any Middleware...
  ) -> some HTTPTransferClient {
    client.with(middleware)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDownloadIsLoggedRetriedAndAuthorized(transport: TransportUnderTest) async throws {
    let logged = Mutex<[Int]>([])
    let attempts = Mutex(0)
    let client = try wrapped(
      transport.makeClient(),
      RetryMiddleware(sleep: { _ in }),
      AuthorizationMiddleware.bearer("download-token"),
      // Fails the first attempt the way a busy server would, so the retry has work to do.
      ClosureMiddleware { request, next in
        let attempt = attempts.withVisibleLock { count -> Int in
          count += 1
          return count
        }
        if attempt == 1 { return (HTTPResponse(status: 503), .empty) }
        return try await next(request)
      },
      LoggingMiddleware { entry in logged.withVisibleLock { $0.append(entry.status ?? 0) } })
    let file = FileManager.default.temporaryDirectory.appending(path: "auth-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let endpoint = Endpoint<Data>(
      .get, url: try TestServers.httpbin.adding("/bearer"), parser: .data)
    let response = try await client.download(endpoint, to: file)
    #expect(response.status == 200)
    #expect(try String(contentsOf: file, encoding: .utf8).contains("download-token"))
    #expect(attempts.withVisibleLock { $0 } == 2)
    #expect(logged.withVisibleLock { $0 } == [200])
  }
}
