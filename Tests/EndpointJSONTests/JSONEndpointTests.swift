import EndpointJSON
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct JSONEndpointTests {
  @Test func getEndpointIsAPlainValueYouCanInspect() throws {
    let url = try #require(URL(string: "https://api.example.com/v1/todos"))
    let endpoint = Endpoint<[Todo]>(
      json: .get,
      url: url,
      query: [URLQueryItem(name: "q", value: "a+b c")],
      headers: ["X-Trace": "1"],
      timeout: .seconds(5)
    )
    let request = try endpoint.request()
    #expect(request.method == .get)
    #expect(request.url.absoluteString == "https://api.example.com/v1/todos?q=a%2Bb%20c")
    #expect(request.headerFields["Accept"] == "application/json")
    #expect(request.headerFields["X-Trace"] == "1")
    #expect(request.headerFields["Content-Type"] == nil)
    #expect(request.body == nil)
    #expect(request.timeout == .seconds(5))
  }

  @Test func postEndpointEncodesBodyAndSetsContentType() throws {
    let endpoint = Endpoint<Todo>(
      json: .post,
      url: api.appending(path: "todos"),
      body: NewTodo(title: "Write docs")
    )
    let request = try endpoint.request()
    #expect(request.method == .post)
    #expect(request.headerFields["Content-Type"] == "application/json")
    #expect(request.headerFields["Accept"] == "application/json")
    #expect(text(request.body) == #"{"title":"Write docs"}"#)
  }

  @Test func anOptionalBodyHoldingNilIsSentAsNullAndNoBodyIsNone() throws {
    let missing: NewTodo? = nil
    let withNull = try Endpoint<Todo>(json: .patch, url: api, body: missing).request()
    #expect(text(withNull.body) == "null")
    #expect(withNull.headerFields["Content-Type"] == "application/json")
    let present: NewTodo? = NewTodo(title: "a")
    #expect(
      text(try Endpoint<Todo>(json: .patch, url: api, body: present).request().body)
        == #"{"title":"a"}"#)
    let none = try Endpoint<Todo>(json: .get, url: api).request()
    #expect(none.body == nil)
    #expect(none.headerFields["Content-Type"] == nil)
    let voidNull = try Endpoint<Void>(json: .put, url: api, body: missing).request()
    #expect(text(voidNull.body) == "null")
  }

  @Test func userHeadersWinOverJSONDefaults() throws {
    let endpoint = Endpoint<Todo>(
      json: .post,
      url: api,
      headers: ["Content-Type": "application/vnd.api+json", "Accept": "application/vnd.api+json"],
      body: NewTodo(title: "x")
    )
    let request = try endpoint.request()
    #expect(request.headerFields.values(for: "Content-Type") == ["application/vnd.api+json"])
    #expect(request.headerFields.values(for: "Accept") == ["application/vnd.api+json"])
  }

  @Test func relativePathKeepsBaseAndEncodesInterpolatedSegment() throws {
    let login = "../admin"
    let endpoint = Endpoint<Todo>(
      json: .get,
      path: "users/\(login)/todos",
      relativeTo: api,
      query: [URLQueryItem(name: "page", value: "2")]
    )
    let request = try endpoint.request()
    #expect(
      request.url.absoluteString == "https://api.example.com/v1/users/..%2Fadmin/todos?page=2"
    )
  }

  @Test func relativePathWithBodyEncodesIt() throws {
    let endpoint = Endpoint<Todo>(
      json: .patch,
      path: "todos/\(7)",
      relativeTo: api,
      body: ["done": true] as JSONValue
    )
    let request = try endpoint.request()
    #expect(request.url.absoluteString == "https://api.example.com/v1/todos/7")
    #expect(text(request.body) == #"{"done":true}"#)
  }

  @Test func bodyThatCannotBeEncodedThrowsWhenTheRequestIsResolved() throws {
    let reading = Endpoint<Todo>(
      json: .post,
      url: api,
      body: Reading(sensor: "s", values: [.infinity])
    )
    let error = try #require(throws: EncodingFailure.self) { try reading.request() }
    #expect(error.description.contains("Reading"))
    let unencodable = Endpoint<Void>(json: .post, path: "r", relativeTo: api, body: Unencodable())
    #expect(throws: EncodingFailure.self) { try unencodable.request() }
  }

  @Test func parseDecodesValidDataWithNoNetwork() throws {
    let endpoint = Endpoint<Todo>(json: .get, path: "todos/1", relativeTo: api)
    let todo = try endpoint.parse(ok(), bytes(#"{"id":1,"title":"t","done":true}"#))
    #expect(todo == Todo(id: 1, title: "t", done: true))
  }

  @Test func parseFailsOnMissingData() throws {
    let endpoint = Endpoint<Todo>(json: .get, path: "todos/1", relativeTo: api)
    let error = try #require(throws: ParsingFailure.self) {
      try endpoint.parse(ok(), bytes(#"{"id":1,"done":true}"#))
    }
    #expect(error.path == "title")
  }

  @Test func mapComposesWithJSONParser() throws {
    let titles = Endpoint<TodoList>(json: .get, path: "todos", relativeTo: api)
      .map { $0.items.map(\.title) }
    let body = bytes(#"{"items":[{"id":1,"title":"a","done":false}],"total":1}"#)
    #expect(try titles.parse(ok(), body) == ["a"])
  }

  @Test func statusOutsideExpectingThrowsUnexpectedResponse() throws {
    let endpoint = Endpoint<Todo>(json: .post, url: api, expecting: .codes(201))
    let error = try #require(throws: UnexpectedResponse.self) {
      try endpoint.parse(ok(200), bytes(#"{"id":1,"title":"t","done":true}"#))
    }
    #expect(error.status == 200)
  }

  @Test func customDecoderIsUsedByEndpoint() throws {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let endpoint = Endpoint<NewTodo>(json: .get, url: api, decoder: decoder)
    let todo = try endpoint.parse(ok(), bytes(#"{"title":"x","due_date":"d"}"#))
    #expect(todo.dueDate == "d")
  }

  @Test func customEncoderIsUsedByEndpoint() throws {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let endpoint = Endpoint<Void>(
      json: .put,
      url: api,
      body: NewTodo(title: "x", dueDate: "d"),
      encoder: encoder
    )
    #expect(text(try endpoint.request().body)?.contains(#""due_date":"d""#) == true)
  }

  @Test func optionalEndpointGivesNilFor204() throws {
    let endpoint = Endpoint<Todo?>(json: .get, path: "todos/latest", relativeTo: api)
    #expect(try endpoint.parse(ok(204), Data()) == nil)
    #expect(try endpoint.parse(ok(), bytes(#"{"id":1,"title":"t","done":true}"#))?.id == 1)
  }

  @Test func voidEndpointIgnoresBodyAndChecksStatus() throws {
    let endpoint = Endpoint<Void>(json: .delete, path: "todos/\(1)", relativeTo: api)
    let request = try endpoint.request()
    #expect(request.method == .delete)
    #expect(request.headerFields["Accept"] == "application/json")
    try endpoint.parse(ok(200), bytes("not json at all"))
    try endpoint.parse(ok(204), Data())
    #expect(throws: UnexpectedResponse.self) { try endpoint.parse(ok(500), Data()) }
  }

  @Test func voidEndpointWithBodySendsIt() throws {
    let endpoint = Endpoint<Void>(
      json: .put,
      url: api.appending(path: "todos/1"),
      body: Todo(id: 1, title: "t", done: true),
      expecting: .codes(204)
    )
    let request = try endpoint.request()
    #expect(request.headerFields["Content-Type"] == "application/json")
    #expect(text(request.body) == #"{"done":true,"id":1,"title":"t"}"#)
    try endpoint.parse(ok(204), Data())
    #expect(throws: UnexpectedResponse.self) { try endpoint.parse(ok(200), Data()) }
  }

  @Test func voidEndpointForURLSetsQueryAndTimeout() throws {
    let endpoint = Endpoint<Void>(
      json: .post,
      url: api,
      query: [URLQueryItem(name: "dry run", value: "yes&no")],
      timeout: .milliseconds(250)
    )
    let request = try endpoint.request()
    #expect(request.url.absoluteString == "https://api.example.com/v1?dry%20run=yes%26no")
    #expect(request.timeout == .milliseconds(250))
  }

  @Test func invalidBaseURLIsReportedByRequest() throws {
    let base = try #require(URL(string: "relative/only"))
    let endpoint = Endpoint<Todo>(json: .get, path: "x", relativeTo: base)
    let error = try #require(throws: InvalidRequest.self) { try endpoint.request() }
    #expect(error.kind == .url)
  }
}
