import EndpointOpenAPI
import Testing

@Suite struct StyleGenerationTests {
  @Test func whatAStyleCannotExpressIsStillReported() throws {
    let paths = """
      {"/a/{nested}": {"get": {"operationId": "nested",
         "parameters": [{"name": "nested", "in": "path", "required": true, "style": "matrix",
           "schema": {"type": "object", "properties": {
             "inner": {"type": "object", "properties": {"x": {"type": "string"}}}}}}],
         "responses": {"204": {"description": "OK"}}}},
       "/b": {"get": {"operationId": "cookie",
         "parameters": [{"name": "c", "in": "cookie", "required": true,
           "schema": {"type": "array", "items": {"type": "string"}}}],
         "responses": {"204": {"description": "OK"}}}},
       "/c/{d}": {"get": {"operationId": "spaced",
         "parameters": [{"name": "d", "in": "path", "required": true,
           "style": "spaceDelimited", "schema": {"type": "string"}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.files.isEmpty)
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1a~1{nested}/get/parameters/0/schema: a path parameter of type NestedNested "
          + "in the matrix style is not supported yet; the operation is skipped",
        "#/paths/~1b/get/parameters/0/schema: a cookie parameter of type [String] exploded "
          + "(explode: false sends name=a,b) is not supported yet; the operation is skipped",
        "#/paths/~1c~1{d}/get/parameters/0/style: the spaceDelimited style is not supported "
          + "yet; the operation is skipped",
      ])
  }

  @Test func aRequiredCookieObjectIsSentAsItsPairs() throws {
    let paths = """
      {"/a": {"get": {"operationId": "pick",
         "parameters": [{"name": "box", "in": "cookie", "required": true, "explode": false,
           "schema": {"type": "object", "required": ["w"], "properties": {
             "w": {"type": "integer"}, "label": {"type": "string"}}}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(
      source(output, "API.swift")?.contains(
        """
            var headerFields: [String: String] = [:]
            var boxParts: [String] = []
            if let value = box.label {
              boxParts += ["label", value]
            }
            boxParts += ["w", String(box.w)]
            let boxText = boxParts.joined(separator: ",")
            var cookiePairs: [String] = []
            cookiePairs.append("box=\\(boxText)")
            headerFields["Cookie"] = cookiePairs.joined(separator: "; ")
        """) == true)
  }
}
