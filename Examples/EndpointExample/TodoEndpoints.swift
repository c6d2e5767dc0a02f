import EndpointJSON
import Foundation

// Grouping 2: a namespace for the API. Same endpoints, another home: `TodoEndpoints.all(on: api)`.
// Pick one style per API; the example shows both build the same request.
enum TodoEndpoints {
  /// Every todo.
  static func all(on api: URL) -> Endpoint<[Todo]> {
    Endpoint<[TodoDTO]>(json: .get, path: "todos", relativeTo: api)
      .map { $0.map(Todo.init) }
  }

  /// One todo by id.
  static func todo(id: Int, on api: URL) -> Endpoint<Todo> {
    Endpoint<TodoDTO>(json: .get, path: "todos/\(id)", relativeTo: api)
      .map(Todo.init)
  }
}
