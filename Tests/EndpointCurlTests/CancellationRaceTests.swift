import Foundation
import Testing

@testable import EndpointCurl

/// The curl-specific race: cancellations against completions with the easy-handle accounting
/// (the shared cancellation behaviour is proven for both clients in EndpointTransportTests).
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct CancellationRaceTests {
  @Test(.timeLimit(.minutes(1)))
  func tenThousandCancellationsRacingCompletionsNeverHangCrashOrLeakHandles() async throws {
    let client = try CurlHTTPClient(configuration: .init(maximumConnectionsPerHost: 16))
    let fault = try TestServers.fault
    // Fast answers, so that completions really race the cancellations.
    let urls = [fault.adding("/echo"), fault.adding("/large?bytes=50000")]
    let all = await outcomesOfCancelling(10_000, atMost: 16) { index in
      // Cancelled before the request is under way, during it, or (mostly) after it is done.
      let range = [0...300, 0...3000, 5000...30000][index % 3]
      return .microseconds(Int.random(in: range))
    } _: { index in
      let url = urls[index % urls.count]
      let (response, body) = try await client.send(HTTPRequest(method: .get, url: url))
      _ = try await body.collect(upTo: 1 << 20)
      return response.status
    }
    let results = all.filter { $0 == "result" }.count
    let cancellations = all.filter { $0 == "cancelled" }.count
    let others = all.filter { $0 != "result" && $0 != "cancelled" }
    #expect(others.isEmpty, "unexpected errors: \(others.prefix(5))")
    print("cancellation race: \(results) results, \(cancellations) cancellations")
    #expect(results + cancellations == 10_000)
    #expect(cancellations > 0)
    #expect(results > 0)
    // Every easy handle went back to the pool: none leaked with a cancelled transfer.
    #expect(try await client.waitForIdleHandles())
    #expect(client.liveEasyHandles == client.pooledEasyHandles)
    #expect(client.liveEasyHandles > 0)
  }
}
