// The names the samples of Pagination.md assume.
import EndpointJSON
import EndpointTransport
import Foundation

let client = URLSessionHTTPClient()

struct Repository: Codable, Sendable {
  var name: String
}

struct Order: Codable, Sendable {
  var id: String
}

struct OrderPage: Codable, Sendable {
  var orders: [Order]
  var nextCursor: String?
}

struct Product: Codable, Sendable {
  var sku: String
}

struct ProductPage: Codable, Sendable {
  var products: [Product]
  var total: Int
}
