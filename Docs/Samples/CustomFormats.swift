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

// The endpoints the tests at the end of the article use (the article declares them in
// earlier samples, which the check wraps in functions).
let items = Endpoint(.get, url: api.appending(path: "items.xml"), parser: .itemsXML)
let upload = Endpoint(
  .post,
  url: api.appending(path: "readings"),
  payload: .readings([Reading(sensor: 1, value: -5)]),
  parser: .readings
)
