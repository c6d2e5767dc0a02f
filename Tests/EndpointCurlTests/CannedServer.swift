import EndpointTestSupport
import Foundation

/// A loopback server that answers every request with the same bytes and closes the connection,
/// for responses no real HTTP server sends (conflicting lengths, a protocol that is not HTTP):
/// the shared ``CaptureServer`` with a fixed answer.
final class CannedServer: Sendable {
  private let server: CaptureServer

  init(response: String) throws {
    let answer = CaptureServer.Answer(response, closes: true)
    server = try CaptureServer { _ in answer }
  }

  deinit {
    server.stop()
  }

  /// The port on 127.0.0.1.
  var port: Int { server.port }

  /// `http://127.0.0.1:port/`.
  var url: URL { server.url }

  func stop() {
    server.stop()
  }
}
