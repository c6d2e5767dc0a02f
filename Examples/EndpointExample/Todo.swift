/// A todo as the app uses it: the domain type.
struct Todo: Sendable, Equatable {
  var id: Int
  var title: String
  var isDone: Bool

  /// Makes the domain value from the wire value; the one place that knows both shapes.
  init(_ wire: TodoDTO) {
    self.init(id: wire.id, title: wire.title, isDone: wire.completed)
  }

  init(id: Int, title: String, isDone: Bool) {
    self.id = id
    self.title = title
    self.isDone = isDone
  }
}

/// A todo as the server sends it: the wire type, decoded from JSON.
struct TodoDTO: Codable, Sendable {
  var id: Int
  var title: String
  var completed: Bool
}

/// The body of a create or update request.
struct TodoDraft: Codable, Sendable {
  var title: String
  var completed: Bool
}
