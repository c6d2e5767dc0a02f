import EndpointOpenAPI
import Foundation
import Testing

@Suite struct NamespaceGroupingTests {
  static let paths = """
    {"/users/{id}": {"get": {"operationId": "getUser", "tags": ["people"],
       "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
       "responses": {"204": {"description": "OK"}}}},
     "/users": {"post": {"operationId": "addUser", "tags": ["admin"],
       "responses": {"204": {"description": "OK"}}}},
     "/{tenant}/repos/{repo}": {"get": {"operationId": "getRepo", "tags": ["people"],
       "parameters": [
         {"name": "tenant", "in": "path", "required": true, "schema": {"type": "string"}},
         {"name": "repo", "in": "path", "required": true, "schema": {"type": "string"}}],
       "responses": {"204": {"description": "OK"}}}},
     "/": {"get": {"operationId": "root", "responses": {"204": {"description": "OK"}}}}}
    """

  @Test func thePathsFirstLiteralSegmentNamesTheNamespace() throws {
    let output = try generate(
      document(paths: Self.paths), options: .init(namespacePrefix: "Hub", namespaces: .pathPrefix))
    #expect(output.files.map(\.path) == ["Hub.swift", "HubUsers.swift", "HubRepos.swift"])
    let users = try #require(source(output, "HubUsers.swift"))
    #expect(users.contains("static func addUser() -> Endpoint<Void>"))
    #expect(users.contains("static func getUser(id: String) -> Endpoint<Void>"))
    #expect(
      source(output, "HubRepos.swift")?.contains(
        "static func getRepo(tenant: String, repo: String) -> Endpoint<Void>") == true)
    #expect(source(output, "Hub.swift")?.contains("static func root()") == true)
  }

  @Test func tagsNameTheNamespacesByDefault() throws {
    let output = try generate(document(paths: Self.paths))
    #expect(output.files.map(\.path) == ["API.swift", "Admin.swift", "People.swift"])
  }

  @Test func theConfigurationChoosesTheGrouping() throws {
    let options = try OpenAPIGenerator.Options(
      configuration: Data(#"{"namespaces": "pathPrefix"}"#.utf8))
    #expect(options.namespaces == .pathPrefix)
    #expect(try OpenAPIGenerator.Options(configuration: Data("{}".utf8)).namespaces == .tags)
    let error = #expect(throws: OpenAPIGenerator.Failure.self) {
      try OpenAPIGenerator.Options(configuration: Data(#"{"namespaces": "paths"}"#.utf8))
    }
    #expect(error?.pointer == "#/namespaces")
  }
}
