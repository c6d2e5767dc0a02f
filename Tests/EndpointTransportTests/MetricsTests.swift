import EndpointTransport
import Foundation
import Testing

@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct MetricsTests {
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
    #expect((failed.error as? TransportFailure)?.kind == .idleTimeout)
    #expect(failed.status == nil)
  }
}

/// Which ``TransferMetrics`` fields each client fills: both report through the same observer
/// shape (`@Sendable (TransferMetrics) -> Void`), and the SDK's own instants, counts and
/// outcome on both; the connection phases only where the platform measures them.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct MetricsParityTests {
  /// The names of the optional fields that hold a value.
  private func filled(_ metrics: TransferMetrics) -> Set<String> {
    var names: Set<String> = []
    if metrics.finalURL != nil { names.insert("finalURL") }
    if metrics.status != nil { names.insert("status") }
    if metrics.responseStart != nil { names.insert("responseStart") }
    if metrics.firstBodyByte != nil { names.insert("firstBodyByte") }
    if metrics.nameLookup != nil { names.insert("nameLookup") }
    if metrics.connect != nil { names.insert("connect") }
    if metrics.tlsHandshake != nil { names.insert("tlsHandshake") }
    if metrics.firstByte != nil { names.insert("firstByte") }
    if metrics.total != nil { names.insert("total") }
    if metrics.reusedConnection != nil { names.insert("reusedConnection") }
    if metrics.httpVersion != nil { names.insert("httpVersion") }
    if metrics.error != nil { names.insert("error") }
    return names
  }

  /// Filled by every transport: the SDK measures them itself.
  private let shared: Set<String> = ["finalURL", "status", "responseStart", "firstBodyByte"]
  /// libcurl's phase timers and connection facts over plain HTTP (`tlsHandshake` is filled over
  /// HTTPS only; `TLSTests` checks it there).
  private let curlPhases: Set<String> = [
    "nameLookup", "connect", "firstByte", "total", "reusedConnection", "httpVersion",
  ]

  @Test(arguments: TransportUnderTest.allCases)
  func eachClientFillsItsDocumentedFields(_ transport: TransportUnderTest) async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try transport.makeClient(metricsObserver: { recorded.append($0) })
    let (_, body) = try await client.send(
      HTTPRequest(method: .get, url: try TestServers.httpbin.adding("/bytes/64"))
    )
    _ = try await body.collect(upTo: 1 << 16)
    let metrics = try #require(recorded.values.first)
    #expect(metrics.bytesReceived == 64)
    switch transport {
    case .urlSession:
      #if canImport(FoundationNetworking)
        // Foundation on Linux never delivers its task metrics: no phase is measured.
        #expect(filled(metrics) == shared)
      #endif
    case .curl:
      #expect(filled(metrics) == shared.union(curlPhases))
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aFailureFillsTheErrorAndNoResponseFields(_ transport: TransportUnderTest) async throws {
    let recorded = Recorder<TransferMetrics>()
    let client = try transport.makeClient(
      idleTimeout: .milliseconds(300),
      metricsObserver: { recorded.append($0) }
    )
    _ = try? await client.send(
      HTTPRequest(method: .get, url: try TestServers.fault.adding("/silent"))
    )
    let metrics = try #require(recorded.values.first)
    let fields = filled(metrics)
    #expect(fields.contains("error"))
    #expect(fields.isDisjoint(with: ["status", "responseStart", "firstBodyByte"]))
  }
}
