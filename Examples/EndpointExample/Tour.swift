import EndpointJSON
import Foundation

/// The walk through the SDK: each step prints what it sends and what it got, and checks the
/// answer, so a run that ends with "All steps passed" has shown every feature working.
struct Tour<Client: HTTPClient> {
  /// Sends every request: the fake backend's stub client or the URLSession transport.
  let client: Client
  /// The todo API's base URL.
  let api: URL
  private var step = 0
  private var title = ""

  init(client: Client, api: URL) {
    self.client = client
    self.api = api
  }

  /// Runs every step; on a failure, says which step failed and rethrows.
  mutating func run() async throws {
    do {
      try await runSteps()
    } catch {
      FileHandle.standardError.write(
        Data("\nEndpointExample: step \(step) (\(title)) failed: \(error)\n".utf8))
      throw error
    }
  }

  private mutating func runSteps() async throws {
    let before = try await listAll()
    try await listPaginated(expecting: before)
    let created = try await create()
    let fetched = try await fetch(created)
    let updated = try await update(fetched)
    try await delete(updated, expectingCount: before.count)
    try groupings()
    try await authenticated()
    try await gitHubUser()
    try await typedErrors()
    print("")
    print("All \(step) steps passed.")
  }

  // MARK: - The todo flow

  private mutating func listAll() async throws -> [Todo] {
    heading("List all todos")
    let endpoint = Todo.all(on: api)
    try show(endpoint)
    let todos = try await client.call(endpoint)
    note("\(todos.count) todos:")
    for todo in todos { note("  \(line(todo))") }
    return todos
  }

  private mutating func listPaginated(expecting all: [Todo]) async throws {
    heading("Walk the todos a page at a time")
    let firstPage = Todo.pages(of: 1, on: api)
    try show(firstPage)
    var pages = 0
    for try await page in client.pages(of: firstPage, paginator: .linkHeader()) {
      pages += 1
      note("page \(page.index + 1): \(page.resource.map(\.title).joined(separator: ", "))")
    }
    var walked: [Todo] = []
    for try await todo in client.items(of: firstPage, paginator: .linkHeader()) {
      walked.append(todo)
    }
    note("\(walked.count) todos over \(pages) pages, each page found by its Link field")
    try expect(
      walked.map(\.id) == all.map(\.id) && pages == all.count,
      "the paginated walk gave \(walked.count) todos over \(pages) pages, not \(all.count)"
    )
  }

  private mutating func create() async throws -> Todo {
    heading("Create a todo (POST)")
    let draft = TodoDraft(title: "Try Endpoint", completed: false)
    let endpoint = Todo.create(draft, on: api)
    try show(endpoint)
    note("body \(try json(draft))")
    let (todo, response) = try await client.call(endpoint.withResponse())
    note("\(response.status) \(HTTPResponse.reasonPhrase(for: response.status)): \(line(todo))")
    try expect(todo.title == draft.title, "the server stored '\(todo.title)'")
    return todo
  }

  private mutating func fetch(_ created: Todo) async throws -> Todo {
    heading("Fetch it back by id (GET; the wire type TodoDTO is mapped to Todo with map)")
    let endpoint = Todo.with(id: created.id, on: api)
    try show(endpoint)
    let todo = try await client.call(endpoint)
    note(line(todo))
    try expect(todo == created, "fetched \(todo), created \(created)")
    return todo
  }

  private mutating func update(_ todo: Todo) async throws -> Todo {
    heading("Mark it done (PUT)")
    var done = todo
    done.isDone = true
    let endpoint = Todo.update(done, on: api)
    try show(endpoint)
    let updated = try await client.call(endpoint)
    note(line(updated))
    try expect(updated.isDone, "the server did not mark #\(todo.id) done")
    return updated
  }

  private mutating func delete(_ todo: Todo, expectingCount count: Int) async throws {
    heading("Delete it (DELETE; the endpoint expects 204 No Content)")
    let endpoint = Todo.delete(id: todo.id, on: api)
    try show(endpoint)
    try await client.call(endpoint)
    let remaining = try await client.call(Todo.all(on: api))
    note("deleted #\(todo.id); \(remaining.count) todos left")
    try expect(remaining.count == count, "\(remaining.count) todos left, expected \(count)")
  }

  // MARK: - Grouping endpoints

  private mutating func groupings() throws {
    heading("One endpoint, two homes: factories on the type, or a namespace")
    let onType = try Todo.all(on: api).request()
    let inNamespace = try TodoEndpoints.all(on: api).request()
    note("Todo.all(on:)          \(onType)")
    note("TodoEndpoints.all(on:) \(inNamespace)")
    let same =
      onType.method == inNamespace.method && onType.url == inNamespace.url
      && onType.headerFields == inNamespace.headerFields
    note("the same request: \(same ? "yes" : "no")")
    try expect(same, "the two groupings built different requests")
  }

  // MARK: - Authentication and a GitHub-style namespace

  private mutating func authenticated() async throws {
    heading("An authenticated endpoint (Basic auth from an API key, as Mailchimp's)")
    let mailchimp = Mailchimp(base: api, apiKey: ExampleCredentials.apiKey)
    let endpoint = mailchimp.account()
    // curlCommand() hides the credential; print(request) never shows header values at all.
    note(try endpoint.request().curlCommand())
    let account = try await client.call(endpoint)
    note("with the header on the endpoint:    \(account.accountName) (\(account.plan) plan)")

    let authorized = client.with(
      AuthorizationMiddleware.basic(username: "anystring", password: ExampleCredentials.apiKey)
    )
    let viaMiddleware = try await authorized.call(Account.current(on: api))
    note("with AuthorizationMiddleware.basic: \(viaMiddleware.accountName)")

    do {
      _ = try await client.call(Account.current(on: api))
      throw ExampleFailure("/account answered without credentials")
    } catch let error as UnexpectedResponse where error.status == 401 {
      let body = try error.decodeBody(as: APIErrorBody.self)
      note("with no credentials:                \(error.status): \"\(body.message)\"")
    }
  }

  private mutating func gitHubUser() async throws {
    heading("A GitHub-style namespace: GitHub.user(login:)")
    let endpoint = GitHub.user(login: "octocat", on: api)
    try show(endpoint)
    let user = try await client.call(endpoint)
    note("\(user.name ?? user.login) (\(user.login)), \(user.publicRepos) public repos")
    try expect(user.login == "octocat", "got user \(user.login)")

    let hostile = try GitHub.user(login: "../admin", on: api).request()
    note("a login stays one path segment: user(login: \"../admin\") → \(hostile)")
    try expect(hostile.url.path().hasSuffix("/users/..%2Fadmin"), "got \(hostile.url)")
  }

  // MARK: - Errors

  private mutating func typedErrors() async throws {
    heading("Typed errors: a 404, and a 422 with a decoded error body")
    do {
      _ = try await client.call(Todo.with(id: 999, on: api))
      throw ExampleFailure("todo 999 exists")
    } catch let error as UnexpectedResponse where error.status == 404 {
      let body = try error.decodeBody(as: APIErrorBody.self)
      note(
        "\(error.method) \(error.url.path()) → UnexpectedResponse \(error.status): \(body.message)")
    }

    do {
      _ = try await client.call(Todo.create(TodoDraft(title: " ", completed: false), on: api))
      throw ExampleFailure("a todo with a blank title was accepted")
    } catch let error as UnexpectedResponse where error.status == 422 {
      let problem = try error.decodeBody(as: ValidationProblem.self)
      note("POST a blank title → UnexpectedResponse \(error.status), decoded as ValidationProblem:")
      for field in problem.errors {
        note("  \(problem.message): \(field.field) \(field.message)")
      }
      try expect(problem.errors.map(\.field) == ["title"], "the 422 named \(problem.errors)")
    }
  }

  // MARK: - Printing

  private mutating func heading(_ title: String) {
    step += 1
    self.title = title
    print("")
    print("\(step). \(title)")
  }

  private func note(_ text: String) {
    print("   \(text)")
  }

  private func show<Resource>(_ endpoint: Endpoint<Resource>) throws {
    note("→ \(try endpoint.request())")
  }

  private func line(_ todo: Todo) -> String {
    "#\(todo.id) [\(todo.isDone ? "x" : " ")] \(todo.title)"
  }

  private func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
