import EndpointJSON
import Foundation

/// An API authenticated with HTTP Basic from an API key, as Mailchimp's is: any user name, the
/// key as the password. The key lives in the value, so every endpoint it makes carries it.
struct Mailchimp: Sendable {
  let base: URL
  let apiKey: String

  /// `Authorization: Basic base64("anystring:<key>")`, built once per endpoint.
  var authHeader: [String: String] {
    ["Authorization": "Basic " + Data("anystring:\(apiKey)".utf8).base64EncodedString()]
  }

  /// The account the key belongs to.
  func account() -> Endpoint<Account> {
    Endpoint(json: .get, path: "account", relativeTo: base, headers: authHeader)
  }
}

/// The account behind an API key.
struct Account: Codable, Sendable {
  var accountName: String
  var plan: String

  enum CodingKeys: String, CodingKey {
    case accountName = "account_name"
    case plan
  }
}

extension Account {
  /// The same endpoint with no credentials of its own: a client with
  /// `AuthorizationMiddleware.basic` adds them to every request instead.
  static func current(on api: URL) -> Endpoint<Account> {
    Endpoint(json: .get, path: "account", relativeTo: api)
  }
}
