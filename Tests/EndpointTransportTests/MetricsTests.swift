import EndpointTransport
import Foundation
import Testing

@Suite struct MetricsTests {
  @Test(arguments: TransportUnderTest.allCases)
  func everyRequestReportsTimingsAndByteCounts(transport: TransportUnderTest) async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try transport.makeClient(metricsObserver: { recorded.append($0) })
    let url = try TestServers.fault.adding("/echo")
    let request = HTTPRequest(method: .post, url: url, body: HTTPBody("0123456789"))
    let (_, body) = try await client.send(request)
    let data = try await body.collect(upTo: 1 << 16)
    let metrics = try #require(recorded.values.first)
    #expect(recorded.values.count == 1)
    #expect(metrics.method == .post)
    #expect(metrics.url == url)
    #expect(metrics.status == 200)
    #expect(metrics.bytesSent == 10)
    #expect(metrics.bytesReceived == Int64(data.count))
    #expect(metrics.error == nil)
    let head = try #require(metrics.responseStart)
    let first = try #require(metrics.firstBodyByte)
    #expect(metrics.start <= head)
    #expect(head <= first)
    #expect(first <= metrics.end)
    #expect(metrics.description.contains("POST \(url.absoluteString) 200"))
    #expect(metrics.startDate <= Date())
    switch transport {
    case .urlSession:
      // Foundation never delivers its task metrics on Linux: the phases stay unmeasured.
      #expect(metrics.nameLookup == nil && metrics.connect == nil && metrics.firstByte == nil)
    case .curl:
      // libcurl's phase timers, in order, over plain HTTP (no TLS).
      let connect = try #require(metrics.connect)
      let firstByte = try #require(metrics.firstByte)
      #expect(connect <= firstByte)
      #expect(metrics.tlsHandshake == nil || metrics.tlsHandshake == .zero)
      #expect(metrics.httpVersion == "1.1")
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func redirectsAndFailuresAreReported(transport: TransportUnderTest) async throws {
    let recorded = Recorder<TransferMetrics>()
    // The short idle timeout only for the silent server: a busy machine may take longer than
    // that to answer the redirects.
    let client = try transport.makeClient(metricsObserver: { recorded.append($0) })
    let impatient = try transport.makeClient(
      idleTimeout: .milliseconds(200),
      metricsObserver: { recorded.append($0) }
    )
    let redirect = try TestServers.httpbin.adding("/redirect/2")
    _ = try await client.send(HTTPRequest(method: .get, url: redirect))
    let silent = try TestServers.fault.adding("/silent")
    _ = try? await impatient.send(HTTPRequest(method: .get, url: silent))
    let values = recorded.values
    #expect(values.count == 2)
    let followed = try #require(values.first { $0.url == redirect })
    #expect(followed.redirectCount == 2)
    #expect(followed.finalURL?.path == "/get")
    let failed = try #require(values.first { $0.url == silent })
    #expect(failed.error is IdleTimeout)
    #expect(failed.status == nil)
  }
}
