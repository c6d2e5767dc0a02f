import EndpointCore
import EndpointTestSupport
import Foundation
import Testing

/// A request that cannot be sent is refused by both clients with the same `InvalidRequest` kind,
/// so a caller's `catch` does not depend on the transport.
@Suite struct InvalidRequestParityTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aBodyFileRemovedBeforeSendingIsOfKindBody(transport: TransportUnderTest) async throws {
    let server = try CaptureServer()
    defer { server.stop() }
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("endpoint-removed-\(UUID().uuidString).bin")
    try Data("body".utf8).write(to: file)
    let body = try HTTPBody(contentsOf: file)
    try FileManager.default.removeItem(at: file)
    let client = try transport.makeClient()
    let error = await expectInvalidRequest(.body) {
      _ = try await client.send(HTTPRequest(method: .put, url: server.url, body: body))
    }
    #expect(error?.description.hasPrefix("Cannot read body file \(file.path): ") == true)
    #expect(server.totalBytes == 0)
  }
}
