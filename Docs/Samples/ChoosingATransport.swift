// The names the samples of ChoosingATransport.md assume.
import EndpointJSON
import Foundation

struct User: Codable, Sendable {
  var id: Int
  var name: String

  static func with(id: Int) -> Endpoint<User> {
    Endpoint(json: .get, url: URL(string: "https://api.example.com/v1/users/\(id)")!)
  }
}
