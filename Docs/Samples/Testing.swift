// The names the samples of Testing.md assume.
import EndpointJSON
import EndpointTesting
import Foundation
import Synchronization

let api = URL(string: "https://api.example.com/v1")!
let stub = StubClient(baseURL: api)
let token = "test-token"
let encoder = JSONEncoder()
let fixtureURL = URL(fileURLWithPath: "Tests/AppTests/Fixtures/octocat.json")

let png = Data([0x89, 0x50, 0x4E, 0x47])
let pngData = png
let logo = png
let data: JSONValue = ["ok": true]
let config: JSONValue = ["beta": true]
let results: JSONValue = ["items": []]
let feed: JSONValue = ["entries": []]
let ada = User(id: 1, name: "Ada")
let me = ada

struct User: Codable, Sendable, Equatable {
  var id: Int
  var name: String

  static func with(id: Int) -> Endpoint<User> {
    Endpoint(json: .get, path: "users/\(id)", relativeTo: api)
  }
}

struct Todo: Codable, Sendable {
  var id: Int
  var title: String

  init(id: Int, title: String) {
    self.id = id
    self.title = title
  }

  static func create(title: String) -> Endpoint<Todo> {
    Endpoint(json: .post, path: "todos", relativeTo: api, body: ["title": title])
  }

  static func with(id: Int) -> Endpoint<Todo> {
    Endpoint(json: .get, path: "todos/\(id)", relativeTo: api)
  }
}

struct GitHubUser: Codable, Sendable {
  var login: String
}

enum GitHub {
  static func user(_ login: String) -> Endpoint<GitHubUser> {
    Endpoint(json: .get, url: URL(string: "https://api.github.com/users/\(login)")!)
  }
}

/// A view model that loads a user through any client.
final class ProfileModel: Sendable {
  private let client: any HTTPClient
  private let state = Mutex<(isLoading: Bool, user: User?)>((false, nil))

  init(client: any HTTPClient) {
    self.client = client
  }

  var isLoading: Bool { state.withLock { $0.isLoading } }
  var user: User? { state.withLock { $0.user } }

  func load(id: Int) async {
    state.withLock { $0.isLoading = true }
    let user = try? await client.call(User.with(id: id))
    state.withLock { $0 = (false, user) }
  }
}
