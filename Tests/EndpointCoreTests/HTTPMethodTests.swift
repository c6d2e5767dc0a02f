import EndpointCore
import Testing

@Suite struct HTTPMethodTests {
  @Test func commonMethodsHaveTheirWireNames() {
    let methods: [HTTPMethod] = [
      .get, .head, .post, .put, .patch, .delete, .options, .trace, .connect,
    ]
    #expect(
      methods.map(\.rawValue) == [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
      ]
    )
  }

  @Test func anyTokenIsAMethod() throws {
    let purge: HTTPMethod = "PURGE"
    #expect(purge.rawValue == "PURGE")
    #expect(purge.description == "PURGE")
    #expect(HTTPMethod(rawValue: "PROPFIND").rawValue == "PROPFIND")
    let endpoint = Endpoint(purge, url: try makeURL("https://cdn.example.com/a"), parser: .void())
    #expect(try endpoint.request().method == "PURGE")
  }

  @Test func methodsAreCaseSensitive() {
    #expect(HTTPMethod(rawValue: "get") != .get)
    #expect(HTTPMethod(rawValue: "GET") == .get)
  }

  @Test func idempotentMethodsFollowRFC9110() {
    #expect(HTTPMethod.get.isIdempotent)
    #expect(HTTPMethod.put.isIdempotent)
    #expect(HTTPMethod.delete.isIdempotent)
    #expect(HTTPMethod.head.isIdempotent)
    #expect(HTTPMethod.options.isIdempotent)
    #expect(HTTPMethod.trace.isIdempotent)
    #expect(!HTTPMethod.post.isIdempotent)
    #expect(!HTTPMethod.patch.isIdempotent)
    #expect(!HTTPMethod("PURGE").isIdempotent)
  }

  @Test(arguments: ["GE T", "", "GET\r\nX-Evil: 1", "GÉT", "GET/1", "(GET)", "GET\0"])
  func requestRejectsAMethodThatIsNotAToken(_ name: String) throws {
    let endpoint = Endpoint(
      HTTPMethod(rawValue: name), url: try makeURL("https://a.example"), parser: .void())
    let error = try #require(throws: InvalidRequest.self) { try endpoint.request() }
    #expect(error.kind == .method)
    #expect(error.method?.rawValue == name)
    #expect(error.description.contains(String(reflecting: name)))
  }
}
