// The names the samples of Middleware.md assume.
import EndpointJSON
import Foundation

let token = "access-token"
let apiKey = "mailchimp-api-key"
let personalAccessToken = "github-token"
let session = Session(accessToken: "expired", refresh: { "fresh" })

struct GitHubUser: Codable, Sendable {
  var login: String
}

// The article's `enum GitHub` declares `client()`; the curl sample also calls `user(_:)`.
extension GitHub {
  static func user(_ login: String) -> Endpoint<GitHubUser> {
    Endpoint(json: .get, url: URL(string: "https://api.github.com/users/\(login)")!)
  }
}
