// The names the samples of CustomFormats.md assume.
import EndpointCore
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

let api = URL(string: "https://api.example.com/v1")!
let client: any HTTPClient = StubSamples.client

enum StubSamples {
  /// Stands in for a real client; the samples are only type-checked.
  struct Client: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody) {
      (HTTPResponse(status: 200), HTTPBody(Data()))
    }
  }

  static let client = Client()
}
