import EndpointJSON
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON spellings of the seed documents.
@Suite struct SeedSpellingJSONTests {
  let url = URL(string: "https://api.example.com/items/1")!

  @Test func jsonEncodingEncodesAtOnceAndThrows() async throws {
    let payload = try RequestPayload.json(encoding: NewTodo(title: "Milk"))
    #expect(payload.contentType == "application/json")
    #expect(try await payload.body?.collect() == Data(#"{"title":"Milk"}"#.utf8))
    #expect(throws: EncodingFailure.self) {
      try RequestPayload.json(encoding: Reading(sensor: "a", values: [.nan]))
    }
  }

  @Test func bodyBeforeHeadersIsTheSameEndpoint() throws {
    let auth = ["Authorization": "Basic abc"]
    let written = Endpoint<Void>(json: .put, url: url, body: NewTodo(title: "a"), headers: auth)
    let request = try written.request()
    #expect(request.method == .put)
    #expect(request.headerFields["Authorization"] == "Basic abc")
    #expect(request.headerFields["Content-Type"] == "application/json")
    #expect(request.body?.data == Data(#"{"title":"a"}"#.utf8))
    let typed = Endpoint<Todo>(json: .post, url: url, headers: auth, body: NewTodo(title: "a"))
    #expect(try typed.request().headerFields["Authorization"] == "Basic abc")
  }

  @Test func jsonParserTakesAStatusList() throws {
    let endpoint = Endpoint<Todo>(url: url, parser: .json(expecting: [200, 201]))
    let body = Data(#"{"id":1,"title":"a","done":true}"#.utf8)
    #expect(
      try endpoint.parse(HTTPResponse(status: 201), body) == Todo(id: 1, title: "a", done: true))
    #expect(throws: UnexpectedResponse.self) { try endpoint.parse(HTTPResponse(status: 204), body) }
  }

  @Test func jsonObjectConvertsAnUntypedDictionary() throws {
    let object: [String: Any] = [
      "title": "Milk", "count": 2, "ratio": 0.5, "done": false, "big": UInt64.max,
      "tags": ["home", 1] as [Any], "nested": ["note": String?.none as Any] as [String: Any],
    ]
    let value = try JSONValue(jsonObject: object)
    #expect(
      value == [
        "title": "Milk", "count": 2, "ratio": 0.5, "done": false,
        "big": .double(Double(UInt64.max)),
        "tags": ["home", 1], "nested": ["note": nil],
      ])
  }

  @Test func jsonObjectNamesThePathOfAValueJSONCannotHold() {
    let object: [String: Any] = ["items": [["when": Date()]] as [Any]]
    #expect {
      try JSONValue(jsonObject: object)
    } throws: { error in
      (error as? EncodingFailure)?.path == "items[0].when"
        && "\(error)".contains("Date is not a JSON value")
    }
    #expect(throws: EncodingFailure.self) { try JSONValue(jsonObject: ["x": Double.infinity]) }
  }
}

@Suite struct RelativeJSONEndpointTests {
  @Test func jsonEndpointsWithAPathAndNoBaseAreRelative() throws {
    let get = Endpoint<Todo>(json: .get, path: "todos/\(1)")
    #expect(get.url.absoluteString == "todos/1")
    let post = Endpoint<Todo>(json: .post, path: "todos", body: NewTodo(title: "a"))
    #expect(try post.request().headerFields["Content-Type"] == "application/json")
    let delete = Endpoint<Void>(json: .delete, path: "todos/1")
    #expect(try delete.request().url.absoluteString == "todos/1")
    let put = Endpoint<Void>(json: .put, path: "todos/1", body: NewTodo(title: "b"))
    #expect(try put.request().method == .put)
  }
}
