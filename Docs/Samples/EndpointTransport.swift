// The names the samples of the EndpointTransport module page assume.
import EndpointJSON
import EndpointTransport
import Foundation

let baseURL = URL(string: "https://api.example.com/v1/")!

struct Todo: Codable, Sendable {
  var id: Int
  var title: String

  static func with(id: Int) -> Endpoint<Todo> {
    Endpoint(json: .get, path: "todos/\(id)", relativeTo: baseURL)
  }
}
