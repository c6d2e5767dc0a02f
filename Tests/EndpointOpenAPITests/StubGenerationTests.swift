import EndpointOpenAPI
import Foundation
import Testing

@Suite struct StubGenerationTests {
  static func operation(_ id: String, example: String) -> String {
    """
    {"get": {"operationId": "\(id)",
      "parameters": [{"name": "name", "in": "path", "required": true,
        "schema": {"type": "string"}}],
      "responses": {"200": {"description": "OK", "content": {
        "application/json": {"schema": {"type": "string"}, "example": \(example)},
        "text/plain": {"schema": {"type": "string"}, "example": "ignored"}}}}}}
    """
  }

  @Test func aSegmentMixingAParameterWithTextMatchesAnySegmentOnce() throws {
    let paths = """
      {"/files/{name}.json": \(Self.operation("jsonFile", example: #""a\"b""#)),
       "/files/{name}.xml": \(Self.operation("xmlFile", example: #""<a/>""#))}
      """
    let output = try generate(document(paths: paths), options: .init(stubs: "Stubs"))
    let stubs = try #require(output.stubs.first { $0.path == "API+Stubs.swift" }).contents
    #expect(
      stubs.contains(
        """
            // jsonFile: `GET /files/{name}.json`
            stub.on(.get, "/files/{name}").reply(
              status: 200, headers: ["Content-Type": "application/json"],
              body: Data(#""a\\"b""#.utf8)
            ).optional()
          }
        """))
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1files~1{name}.xml/get: its stub would answer the requests of jsonFile "
          + "(/files/{name}.json), as one segment matches any text; the stub leaves it out"
      ])
  }

  @Test func aResponseWithNamedExamplesIsAnsweredWithTheFirst() throws {
    // `GET /tree` of the end-to-end document has the examples `family` and `single`; its stub
    // answers with `family`, as the example server does.
    let document = try Data(
      contentsOf: testDirectory.appending(path: "Documents/pets.json"))
    let output = try OpenAPIGenerator(options: .init(stubs: "Stubs")).generate(
      document: document, named: "pets.json")
    let stubs = try #require(output.stubs.first { $0.path == "Pets+Stubs.swift" }).contents
    let rule = try #require(stubs.firstRange(of: #"stub.on(.get, "/tree")"#))
    let open = try #require(stubs[rule.upperBound...].firstRange(of: "#\"\"\"\n"))
    let close = try #require(stubs[open.upperBound...].firstRange(of: "\"\"\"#"))
    let answered = try JSONSerialization.jsonObject(
      with: Data(stubs[open.upperBound..<close.lowerBound].utf8))
    let paths = try #require(
      (JSONSerialization.jsonObject(with: document) as? [String: Any])?["paths"]
        as? [String: Any])
    let examples = try #require(
      ((((((paths["/tree"] as? [String: Any])?["get"] as? [String: Any])?["responses"]
        as? [String: Any])?["200"] as? [String: Any])?["content"] as? [String: Any])?[
          "application/json"] as? [String: Any])?["examples"] as? [String: Any])
    let family = try #require((examples["family"] as? [String: Any])?["value"])
    let single = try #require((examples["single"] as? [String: Any])?["value"])
    #expect((answered as? NSDictionary)?.isEqual(family) == true)
    #expect((answered as? NSDictionary)?.isEqual(single) == false)
  }

  @Test func withoutTheOptionThereAreNoStubs() throws {
    let paths = #"{"/files/{name}.json": \#(Self.operation("jsonFile", example: "1"))}"#
    #expect(try generate(document(paths: paths)).stubs.isEmpty)
  }

  @Test func anExampleIsMadeFromTheSchemaWhenTheResponseHasNone() throws {
    let schemas = """
      {"Base": {"type": "object", "required": ["id"],
         "properties": {"id": {"type": "integer", "example": 1}}},
       "Named": {"allOf": [{"$ref": "#/components/schemas/Base"},
         {"type": "object", "properties": {"name": {"type": "string", "example": "A"},
           "note": {"type": "string"}}}]},
       "Loose": {"type": "object", "required": ["id"],
         "properties": {"id": {"type": "integer"}, "name": {"type": "string", "example": "A"}}}}
      """
    func answer(_ schema: String) -> String {
      """
      {"get": {"responses": {"200": {"description": "OK", "content": {"application/json": {
        "schema": \(schema)}}}}}}
      """
    }
    let paths = """
      {"/named": \(answer(##"{"type": "array", "items": {"$ref": "#/components/schemas/Named"}}"##)),
       "/loose": \(answer(##"{"$ref": "#/components/schemas/Loose"}"##))}
      """
    let output = try generate(
      document(schemas: schemas, paths: paths), options: .init(stubs: "Stubs"))
    let stubs = try #require(output.stubs.first).contents
    #expect(stubs.contains(##"body: Data(#"[{"id":1,"name":"A"}]"#.utf8)"##))
    // A required property without an example: no example for the object.
    #expect(stubs.contains("/// - `getLoose`: `GET /loose`"))
    #expect(!stubs.contains(#"stub.on(.get, "/loose")"#))
  }
}
