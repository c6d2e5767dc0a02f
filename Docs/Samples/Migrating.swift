// The names the samples of Migrating.md assume.
import EndpointJSON
import EndpointTesting
import EndpointTransport
import Foundation

let github = URL(string: "https://api.github.com/")!
let api = URL(string: "https://api.example.com/v1")!
let avatarURL = URL(string: "https://avatars.example.com/octocat.png")!
let client = URLSessionHTTPClient()
let apiKey = "mailchimp-api-key"
let token = "access-token"

struct Episode: Sendable {
  var title: String
}

struct Edit: Codable, Sendable {
  var plainText: String

  init(_ episode: Episode) {
    plainText = episode.title
  }
}

struct Todo: Codable, Sendable {
  var id: Int
  var title: String
}

struct NewTodo: Codable, Sendable {
  var title: String
}

struct APIProblem: Codable, Sendable {
  var message: String
}
