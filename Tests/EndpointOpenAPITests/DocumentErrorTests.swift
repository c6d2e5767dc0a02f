import EndpointOpenAPI
import Foundation
import Testing

@Suite struct DocumentErrorTests {
  func failure(_ text: String, named name: String = "api.json") -> OpenAPIGenerator.Failure? {
    #expect(throws: OpenAPIGenerator.Failure.self) {
      try OpenAPIGenerator().generate(document: Data(text.utf8), named: name)
    }
  }

  @Test func aDocumentThatIsNotJSONSaysSo() {
    #expect(failure("{oops")?.kind == .notJSON)
  }

  @Test func aYAMLDocumentIsRecognisedAndReadAsYAML() {
    let error = failure("openapi: 3.1.0\ninfo:\n  title: T\n title: U\n", named: "api.yaml")
    #expect(error?.kind == .notYAML)
    #expect(error?.message.contains("api.yaml, line 4") == true)
    let valid = Data("openapi: 3.1.0\ninfo:\n  title: T\n".utf8)
    #expect(throws: Never.self) {
      try OpenAPIGenerator().generate(document: valid, named: "api.yaml")
    }
  }

  @Test func onlyOpenAPI30And31AreRead() {
    #expect(failure(#"{"swagger": "2.0"}"#)?.message.contains("Swagger 2.0") == true)
    #expect(failure(#"{"openapi": "4.0.0"}"#)?.pointer == "#/openapi")
    #expect(failure(#"{"info": {}}"#)?.kind == .notOpenAPI)
  }

  @Test func aReferenceThatDoesNotResolveNamesItsPointer() {
    let error = failure(
      document(
        schemas: ##"{"A": {"properties": {"b": {"$ref": "#/components/schemas/B"}}}}"##
      ))
    #expect(error?.kind == .unresolvedReference)
    #expect(error?.pointer == "#/components/schemas/A/properties/b/$ref")
    #expect(error?.message == ##""#/components/schemas/B" does not resolve"##)
  }

  @Test func theConfigurationIsReadStrictly() throws {
    let options = try OpenAPIGenerator.Options(
      configuration: Data(
        #"{"tags": ["repos"], "namespacePrefix": "GitHub", "accessLevel": "public"}"#.utf8))
    #expect(options == .init(tags: ["repos"], namespacePrefix: "GitHub", accessLevel: .public))
    #expect(throws: OpenAPIGenerator.Failure.self) {
      try OpenAPIGenerator.Options(configuration: Data(#"{"acessLevel": "public"}"#.utf8))
    }
    #expect(throws: OpenAPIGenerator.Failure.self) {
      try OpenAPIGenerator.Options(configuration: Data(#"{"accessLevel": "open"}"#.utf8))
    }
  }
}
