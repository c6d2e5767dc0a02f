import EndpointJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

struct Todo: Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var done: Bool
}

struct TodoList: Codable, Equatable, Sendable {
  var items: [Todo]
  var total: Int
}

struct NewTodo: Codable, Equatable, Sendable {
  var title: String
  var dueDate: String?
}

struct Reading: Codable, Sendable {
  var sensor: String
  var values: [Double]
}

struct ValidationProblem: Codable, Equatable, Sendable {
  struct FieldError: Codable, Equatable, Sendable {
    var field: String
    var message: String
  }
  var message: String
  var errors: [FieldError]
}

/// A value whose own `encode(to:)` fails, as a custom encoding can.
struct Unencodable: Encodable, Sendable {
  struct Refused: Error {}
  func encode(to encoder: any Encoder) throws { throw Refused() }
}

let api = URL(string: "https://api.example.com/v1")!

func ok(_ status: Int = 200) -> HTTPResponse {
  HTTPResponse(status: status)
}

func bytes(_ text: String) -> Data {
  Data(text.utf8)
}

func text(_ body: HTTPBody?) -> String? {
  body?.data.map { String(decoding: $0, as: UTF8.self) }
}
