import Foundation
import Testing

@testable import EndpointCurl

/// What the libcurl client does beyond the shared transport behaviour.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CurlClientTests {
  @Test func keptAliveConnectionsAreReusedAndTimingsReported() async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try CurlHTTPClient(configuration: .init(metricsObserver: { recorded.append($0) }))
    let url = try TestServers.fault.adding("/echo")
    for _ in 0..<3 {
      let (_, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 16)
    }
    let values = recorded.values
    #expect(values.count == 3)
    let first = try #require(values.first)
    #expect(first.reusedConnection == false)
    #expect(values.dropFirst().allSatisfy { $0.reusedConnection == true })
    #expect(first.httpVersion == "1.1")
    let connect = try #require(first.connect)
    let firstByte = try #require(first.firstByte)
    let total = try #require(first.total)
    #expect(connect <= firstByte)
    #expect(firstByte <= total)
    #expect(first.tlsHandshake == nil)
    #expect(first.description.contains("first byte"))
  }

  @Test func aCallersOwnAcceptEncodingGetsTheRawBytes() async throws {
    let client = try CurlHTTPClient()
    var request = HTTPRequest(method: .get, url: try TestServers.httpbin.adding("/gzip"))
    try request.headerFields.append("gzip", for: "Accept-Encoding")
    let (_, body) = try await client.send(request)
    let data = try await body.collect(upTo: 1 << 16)
    #expect(Array(data.prefix(2)) == [0x1F, 0x8B])
  }

  @Test func emptyFieldValuesAreSentAndNoExpectWaitsOnLargeBodies() async throws {
    let client = try CurlHTTPClient()
    let url = try TestServers.fault.adding("/echo")
    let payload = Data(repeating: 0x62, count: 2 * 1024 * 1024)
    var request = HTTPRequest(method: .put, url: url, body: HTTPBody(payload))
    try request.headerFields.append("", for: "X-Empty")
    let (_, echo) = try await sendForJSON(client, request)
    let headers = try echoedHeaders(echo)
    #expect(headers.contains { $0 == ("x-empty", "") })
    #expect(!headers.contains { $0.0 == "expect" })
    #expect(!headers.contains { $0.0 == "content-type" })
    #expect(try echoedBody(echo) == payload)
  }

  @Test func cookiesOfARedirectChainDoNotReachTheNextExchange() async throws {
    let client = try CurlHTTPClient(configuration: .init(maximumIdleConnections: 1))
    let set = try TestServers.httpbin.adding("/cookies/set?flavour=oatmeal")
    let (_, first) = try await sendForJSON(client, HTTPRequest(method: .get, url: set))
    #expect(first["cookies"] as? [String: String] == ["flavour": "oatmeal"])
    let (_, second) = try await sendForJSON(
      client,
      HTTPRequest(method: .get, url: try TestServers.httpbin.adding("/cookies"))
    )
    #expect(second["cookies"] as? [String: String] == [:])
  }

  @Test func anExplicitProxyCarriesTheRequest() async throws {
    // httpbin answers a proxy-form request itself, echoing the absolute URL it was asked for.
    let proxy = try TestServers.httpbin
    let client = try CurlHTTPClient(configuration: .init(proxy: .url(proxy)))
    let target = try #require(URL(string: "http://endpoint-proxy-test.invalid/anything"))
    let (_, json) = try await sendForJSON(client, HTTPRequest(method: .get, url: target))
    #expect((json["url"] as? String)?.contains("endpoint-proxy-test.invalid") == true)
    #expect(client.configuration.proxy.description.hasPrefix("proxy http://127.0.0.1"))
  }

  @Test func tlsToAServerThatDoesNotSpeakTLSFails() async throws {
    let client = try CurlHTTPClient()
    let plain = try TestServers.httpbin
    let url = try #require(URL(string: "https://127.0.0.1:\(plain.port ?? 0)/get"))
    let error = try await #require(throws: TransportFailure.self) {
      try await client.send(HTTPRequest(method: .get, url: url))
    }
    #expect(error.kind == .tls)
    #expect(!error.isTransient)
  }

  @Test(.timeLimit(.minutes(1)))
  func aThousandConcurrentTransfersComplete() async throws {
    let client = try CurlHTTPClient(configuration: .init(maximumConnectionsPerHost: 64))
    let url = try TestServers.fault.adding("/echo")
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<1000 {
        group.addTask {
          let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
          _ = try await body.collect(upTo: 1 << 16)
          return response.status
        }
      }
      return try await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses.count == 1000)
    #expect(statuses.allSatisfy { $0 == 200 })
    #expect(try await client.waitForIdleHandles())
  }

  @Test func theClientReportsTheLibcurlItLoaded() throws {
    let client = try CurlHTTPClient()
    let parts = client.libcurlVersion.split(separator: ".").compactMap { Int($0) }
    #expect(parts.count == 3)
    #expect(parts[0] * 10_000 + parts[1] * 100 >= 7 * 10_000 + 68 * 100)
  }
}
