import EndpointJSON
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct ErrorBodyTests {
  let problemJSON = """
    {"message":"Validation failed","errors":[{"field":"title","message":"must not be empty"}]}
    """

  @Test func validationErrorBodyDecodesFromUnexpectedResponse() throws {
    let endpoint = Endpoint<Todo>(json: .post, url: api, body: NewTodo(title: ""))
    let error = try #require(throws: UnexpectedResponse.self) {
      try endpoint.parse(ok(422), bytes(problemJSON))
    }
    #expect(error.status == 422)
    let problem = try error.decodeBody(as: ValidationProblem.self)
    #expect(problem.message == "Validation failed")
    #expect(problem.errors == [.init(field: "title", message: "must not be empty")])
  }

  @Test func errorBodyTypeCanBeInferred() throws {
    let endpoint = Endpoint<Todo>(json: .get, url: api)
    let error = try #require(throws: UnexpectedResponse.self) {
      try endpoint.parse(ok(422), bytes(problemJSON))
    }
    let problem: ValidationProblem = try error.decodeBody()
    #expect(problem.errors.first?.field == "title")
  }

  @Test func errorBodyThatDoesNotDecodeThrowsParsingFailure() throws {
    let endpoint = Endpoint<Todo>(json: .get, url: api)
    let error = try #require(throws: UnexpectedResponse.self) {
      try endpoint.parse(ok(422), bytes(#"{"message":"bad","errors":[{"field":"title"}]}"#))
    }
    let failure = try #require(throws: ParsingFailure.self) {
      try error.decodeBody(as: ValidationProblem.self)
    }
    #expect(failure.type == "ValidationProblem")
    #expect(failure.path == "errors[0].message")
  }

  @Test func errorBodyDecodesAsJSONValueWhenItHasNoFixedShape() throws {
    let endpoint = Endpoint<Todo>(json: .get, url: api)
    let error = try #require(throws: UnexpectedResponse.self) {
      try endpoint.parse(ok(500), bytes(#"{"code":17,"detail":"db down"}"#))
    }
    let value = try error.decodeBody(as: JSONValue.self)
    #expect(value["code"]?.intValue == 17)
  }
}
