import EndpointJSON
import Foundation

// Grouping 1: factories on the type they return. Call sites read `Todo.all(on: api)`.
extension Todo {
  /// Every todo. The wire array is mapped to domain values with `map`.
  static func all(on api: URL) -> Endpoint<[Todo]> {
    Endpoint<[TodoDTO]>(json: .get, path: "todos", relativeTo: api)
      .map { $0.map(Todo.init) }
  }

  /// The todos a page at a time: `perPage` on each, the next page named in a `Link` field.
  /// Walk them with `client.items(of:paginator: .linkHeader())`.
  static func pages(of perPage: Int, on api: URL) -> Endpoint<[Todo]> {
    Todo.all(on: api).addingQuery("per_page", String(perPage))
  }

  /// One todo by id, mapped from the wire type to the domain type.
  static func with(id: Int, on api: URL) -> Endpoint<Todo> {
    Endpoint<TodoDTO>(json: .get, path: "todos/\(id)", relativeTo: api)
      .map(Todo.init)
  }

  /// Creates a todo; the server answers 201 with the stored todo.
  static func create(_ draft: TodoDraft, on api: URL) -> Endpoint<Todo> {
    Endpoint<TodoDTO>(json: .post, path: "todos", relativeTo: api, body: draft)
      .map(Todo.init)
  }

  /// Replaces a todo's title and state.
  static func update(_ todo: Todo, on api: URL) -> Endpoint<Todo> {
    let draft = TodoDraft(title: todo.title, completed: todo.isDone)
    return Endpoint<TodoDTO>(json: .put, path: "todos/\(todo.id)", relativeTo: api, body: draft)
      .map(Todo.init)
  }

  /// Deletes a todo; the server answers 204 No Content.
  static func delete(id: Int, on api: URL) -> Endpoint<Void> {
    Endpoint<Void>(json: .delete, path: "todos/\(id)", relativeTo: api, expecting: .codes(204))
  }
}
