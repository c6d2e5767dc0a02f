// The names the samples of JSON.md assume.
import EndpointJSON
import EndpointTransport
import Foundation

let api = URL(string: "https://api.example.com/v1")!
let client = URLSessionHTTPClient()
let readingsURL = URL(string: "https://api.example.com/v1/readings")!
let echoURL = URL(string: "https://api.example.com/v1/echo")!
let searchURL = URL(string: "https://api.example.com/v1/search")!

struct Order: Codable, Sendable {
  var id: Int
  var placedAt: Date
}
