import EndpointTesting
import Foundation
import Synchronization

/// The todo API in memory: a `StubClient` whose rules compute each reply from shared state, so
/// the example runs offline with no set-up. It answers like `Examples/todo_server.py`.
enum FakeBackend {
  /// The base URL the fake answers under; nothing is sent to it.
  static let baseURL = URL(string: "https://todo.example/api/")!
  /// The API key the fake's `/account` accepts as the Basic password.
  static let apiKey = ExampleCredentials.apiKey

  /// The todos and the next id, guarded so concurrent calls see one consistent store.
  private struct Store {
    var todos: [Int: TodoDTO] = [
      1: TodoDTO(id: 1, title: "Buy milk", completed: false),
      2: TodoDTO(id: 2, title: "Read the Endpoint docs", completed: true),
    ]
    var nextID = 3
  }

  /// A client that answers the todo API's routes from memory.
  static func client() -> StubClient {
    let store = Mutex(Store())
    let stub = StubClient(baseURL: baseURL)

    stub.on(.get, "/todos").reply { request in
      let todos = store.withLock { $0.todos.values.sorted { $0.id < $1.id } }
      guard let perPage = request.query("per_page").flatMap(Int.init), perPage > 0 else {
        return .json(todos)
      }
      // Paginated like the todo server: `page` from 1, the next page in a Link field.
      let page = max(1, request.query("page").flatMap(Int.init) ?? 1)
      let start = min(todos.count, (page - 1) * perPage)
      let slice = Array(todos[start..<min(todos.count, start + perPage)])
      guard start + perPage < todos.count else { return .json(slice) }
      let next = "<todos?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\""
      return .json(slice, headers: ["Link": next])
    }
    stub.on(.post, "/todos").reply { request in
      guard let draft = try? request.decode(TodoDraft.self) else {
        return .json(APIErrorBody(message: "The body is not a todo"), status: 400)
      }
      if let problem = validate(draft) { return .json(problem, status: 422) }
      let created = store.withLock { store in
        let todo = TodoDTO(id: store.nextID, title: draft.title, completed: draft.completed)
        store.todos[todo.id] = todo
        store.nextID += 1
        return todo
      }
      return .json(created, status: 201)
    }
    stub.on(.get, "/todos/{id}").reply { request in
      let id = Int(request.pathParameters["id"] ?? "") ?? -1
      guard let todo = store.withLock({ $0.todos[id] }) else { return notFound(id) }
      return .json(todo)
    }
    stub.on(.put, "/todos/{id}").reply { request in
      let id = Int(request.pathParameters["id"] ?? "") ?? -1
      guard let draft = try? request.decode(TodoDraft.self) else {
        return .json(APIErrorBody(message: "The body is not a todo"), status: 400)
      }
      if let problem = validate(draft) { return .json(problem, status: 422) }
      let updated = store.withLock { store -> TodoDTO? in
        guard store.todos[id] != nil else { return nil }
        let todo = TodoDTO(id: id, title: draft.title, completed: draft.completed)
        store.todos[id] = todo
        return todo
      }
      guard let updated else { return notFound(id) }
      return .json(updated)
    }
    stub.on(.delete, "/todos/{id}").reply { request in
      let id = Int(request.pathParameters["id"] ?? "") ?? -1
      let removed = store.withLock { $0.todos.removeValue(forKey: id) }
      return removed == nil ? notFound(id) : .status(204)
    }
    stub.on(.get, "/account").reply { request in
      let expected = "Basic " + Data("anystring:\(apiKey)".utf8).base64EncodedString()
      guard request.headerFields["Authorization"] == expected else {
        return .json(
          APIErrorBody(message: "Missing or wrong API key"),
          status: 401,
          headers: ["WWW-Authenticate": #"Basic realm="todo""#]
        )
      }
      return .json(Account(accountName: "Example Shop", plan: "free"))
    }
    stub.on(.get, "/users/{login}").reply { request in
      let login = request.pathParameters["login"] ?? ""
      guard let user = users[login] else {
        return .json(APIErrorBody(message: "No user \(login)"), status: 404)
      }
      return .json(user)
    }
    return stub
  }

  private static let users = [
    "octocat": GitHubUser(login: "octocat", name: "The Octocat", publicRepos: 8)
  ]

  private static func validate(_ draft: TodoDraft) -> ValidationProblem? {
    guard draft.title.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
    return ValidationProblem(
      message: "Validation failed",
      errors: [.init(field: "title", message: "must not be empty")]
    )
  }

  private static func notFound(_ id: Int) -> StubResponse {
    .json(APIErrorBody(message: "No todo with id \(id)"), status: 404)
  }
}
