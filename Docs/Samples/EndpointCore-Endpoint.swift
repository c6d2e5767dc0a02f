// The names the samples of the Endpoint page assume.
import EndpointJSON
import EndpointTransport
import Foundation

let baseURL = URL(string: "https://api.example.com/v1/")!
let client = URLSessionHTTPClient()

struct Todo: Codable, Sendable {
  var id: Int
  var title: String
}
