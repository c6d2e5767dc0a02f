import EndpointCore
import EndpointTestSupport
import Foundation
import Testing

/// A download logged by `LoggingMiddleware` counts every byte written to the file, on both
/// clients, as the Middleware article promises.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct DownloadLoggingTests {
  private func logged(
    _ client: some HTTPTransferClient, into entries: Recorder<HTTPLogEntry>
  ) -> some HTTPTransferClient {
    client.with(LoggingMiddleware(sink: { entries.append($0) }))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aLoggedDownloadCountsTheBytesWritten(transport: TransportUnderTest) async throws {
    let entries = Recorder<HTTPLogEntry>()
    let client = logged(try transport.makeClient(), into: entries)
    try await withTemporaryDirectory { directory in
      let file = directory.appending(path: "large.bin")
      let url = try TestServers.fault.adding("/large?bytes=176390")
      let response = try await client.download(
        HTTPRequest(method: .get, url: url), to: file, accepting: AcceptedStatus.success,
        progress: nil)
      #expect(response.status == 200)
      #expect(try Data(contentsOf: file).count == 176_390)
      let logged = entries.values
      #expect(logged.count == 1)
      #expect(logged.first?.bytes == 176_390, "\(logged)")
    }
  }
}
