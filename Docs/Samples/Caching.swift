// The names the samples of Caching.md assume.
import EndpointJSON
import Foundation

let api = URL(string: "https://api.example.com/v1")!

struct Article: Codable, Sendable {
  var id: Int
  var title: String
}
