// The names the samples of Transport.md assume.
import EndpointJSON
import EndpointTransport
import Foundation

let client = URLSessionHTTPClient()

let api = URL(string: "https://api.example.com/v1/")!
let eventsURL = URL(string: "https://api.example.com/v1/events")!
let logURL = URL(string: "https://api.example.com/v1/build/log")!
let archiveURL = URL(string: "https://api.example.com/v1/archive.zip")!
let uploadURL = URL(string: "https://api.example.com/v1/uploads/archive.zip")!

struct User: Codable, Sendable {
  var id: Int
  var name: String

  static func with(id: Int) -> Endpoint<User> {
    Endpoint(json: .get, url: URL(string: "https://api.example.com/v1/users/\(id)")!)
  }
}
