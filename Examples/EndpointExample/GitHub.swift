import EndpointJSON
import Foundation

/// A GitHub-style API namespace: its base URL and one factory per call.
enum GitHub {
  /// The public profile of `login`. The login is interpolated as one path segment, so a login
  /// such as `"../admin"` is sent as `..%2Fadmin` and cannot climb the path.
  static func user(login: String, on api: URL) -> Endpoint<GitHubUser> {
    Endpoint(json: .get, path: "users/\(login)", relativeTo: api)
  }
}

/// The fields of a user profile the example reads.
struct GitHubUser: Codable, Sendable {
  var login: String
  var name: String?
  var publicRepos: Int

  enum CodingKeys: String, CodingKey {
    case login
    case name
    case publicRepos = "public_repos"
  }
}
