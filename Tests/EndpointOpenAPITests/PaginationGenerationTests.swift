import EndpointOpenAPI
import Foundation
import Testing

@Suite struct PaginationGenerationTests {
  static let paths = """
    {"/repos": {"get": {"operationId": "listRepos", "tags": ["repos"],
       "parameters": [{"name": "cursor", "in": "query", "schema": {"type": "integer"}}],
       "responses": {"200": {"description": "OK", "content": {"application/json": {
         "schema": {"type": "array", "items": {"type": "string"}}}}}}}},
     "/users": {"get": {"operationId": "listUsers", "tags": ["repos"],
       "parameters": [{"name": "cursor", "in": "query", "schema": {"type": "integer"}}],
       "responses": {"200": {"description": "OK", "content": {"application/json": {
         "schema": {"type": "object", "required": ["next"],
           "properties": {"next": {"type": "integer"}}}}}}}}}}
    """

  @Test func theLinkStyleAppliesToEveryOperationThatAnswersWithAnArray() throws {
    let output = try generate(
      document(paths: Self.paths), options: .init(pagination: .init(style: .link)))
    let repos = try #require(source(output, "Repos.swift"))
    #expect(
      repos.contains(
        "static func listReposPaginator() -> Paginator<[String]> {\n    .linkHeader()\n  }"))
    #expect(!repos.contains("listUsersPaginator"))
    #expect(output.warnings.isEmpty)
  }

  @Test func aCursorIsReadFromThePageAndAnIntegerOneSentAsText() throws {
    let pagination = OpenAPIGenerator.Pagination(
      style: .cursor, cursorParameter: "cursor", cursorField: "next")
    let output = try generate(
      document(paths: Self.paths), options: .init(pagination: pagination))
    let repos = try #require(source(output, "Repos.swift"))
    #expect(
      repos.contains(
        """
          static func listUsersPaginator() -> Paginator<ListUsersResponse> {
            .cursor(name: "cursor") { page in
              String(page.next)
            }
          }
        """))
    // The array has no property to read a cursor from.
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1repos/get/responses/200: a page with a cursor must be an object with the "
          + "property next; no paginator is generated for it"
      ])
  }

  @Test func theConfigurationIsChecked() throws {
    func failure(_ json: String) -> OpenAPIGenerator.Failure? {
      #expect(throws: OpenAPIGenerator.Failure.self) {
        try OpenAPIGenerator.Options(configuration: Data(json.utf8))
      }
    }
    let options = try OpenAPIGenerator.Options(
      configuration: Data(
        #"{"pagination": {"style": "cursor", "cursorParameter": "a", "cursorField": "b", "hasMoreField": "c", "operations": ["x"]}}"#
          .utf8))
    #expect(
      options.pagination
        == .init(
          style: .cursor, cursorParameter: "a", cursorField: "b", hasMoreField: "c",
          operations: ["x"]))
    #expect(failure(#"{"pagination": {"style": "pages"}}"#)?.pointer == "#/pagination/style")
    #expect(
      failure(#"{"pagination": {"style": "cursor", "cursorParameter": "a"}}"#)?.pointer
        == "#/pagination/cursorField")
    #expect(
      failure(#"{"pagination": {"style": "link", "next": "a"}}"#)?.pointer
        == "#/pagination/next")
  }
}
