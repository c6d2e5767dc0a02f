// The names the samples of DefiningEndpoints.md assume.
import EndpointJSON
import EndpointTransport
import Foundation

let api = URL(string: "https://api.example.com/v1")!
let login = "octocat"
let client = URLSessionHTTPClient()

let notesURL = URL(string: "https://api.example.com/v1/notes")!
let tokenURL = URL(string: "https://auth.example.com/token")!
let uploadURL = URL(string: "https://api.example.com/v1/uploads")!
let cachedURL = URL(string: "https://cdn.example.com/logo.png")!
let movieFile = URL(fileURLWithPath: "/tmp/movie.mp4")
let png = Data()

struct User: Codable, Sendable {
  var id: Int
  var name: String
}

struct GitHubUser: Codable, Sendable {
  var login: String
  var name: String?
}

struct Repository: Codable, Sendable {
  var name: String
}

struct CampaignContent: Codable, Sendable {
  var plainText: String
  var html: String
}
