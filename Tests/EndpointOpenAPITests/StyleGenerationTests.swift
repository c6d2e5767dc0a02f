import EndpointOpenAPI
import EndpointTestSupport
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
              boxParts += ["label", fieldText(value)]
            }
            boxParts += ["w", String(box.w)]
            let boxText = boxParts.joined(separator: ",")
            var cookiePairs: [String] = []
            cookiePairs.append("box=\\(boxText)")
            headerFields["Cookie"] = cookiePairs.joined(separator: "; ")
        """) == true)
  }
}

@Suite struct FieldEncodingTests {
  /// A header's array or object and a cookie are percent-encoded value by value where a field
  /// value or a cookie could not hold them as they are (a `,` between values, a cookie's `;`, a
  /// space, a line break); a key is encoded here, with its `=` when a `key=value` pair follows.
  @Test func textValuesOfHeaderArraysAndObjectsAndOfCookiesAreEncodedOneByOne() async throws {
    let paths = """
      {"/a": {"get": {"operationId": "pick",
         "parameters": [
           {"name": "X-Tags", "in": "header", "required": true,
            "schema": {"type": "array", "items": {"type": "string"}}},
           {"name": "X-Ids", "in": "header", "required": true,
            "schema": {"type": "array", "items": {"type": "integer"}}},
           {"name": "X-Box", "in": "header", "required": true, "explode": true,
            "schema": {"type": "object", "required": ["a=b"], "properties": {
              "a=b": {"type": "integer"}, "min age": {"type": "string"}}}},
           {"name": "X-Note", "in": "header", "required": true, "schema": {"type": "string"}},
           {"name": "X-At", "in": "header", "required": true, "schema": {"type": "object",
            "required": ["x,y"], "properties": {"x,y": {"type": "integer"}}}},
           {"name": "mood", "in": "cookie", "required": true,
            "schema": {"type": "string", "enum": ["calm", "busy"]}},
           {"name": "count", "in": "cookie", "required": true, "schema": {"type": "integer"}},
           {"name": "names", "in": "cookie", "explode": false,
            "schema": {"type": "array", "items": {"type": "string"}}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.warnings.isEmpty)
    let api = try #require(source(output, "API.swift"))
    #expect(api.contains("private static func fieldText(_ text: String) -> String {"))
    #expect(
      api.contains(
        #"headerFields["X-Tags"] = xTags.map { fieldText($0) }.joined(separator: ",")"#))
    #expect(api.contains(#"headerFields["X-Ids"] = xIds.map(String.init).joined(separator: ",")"#))
    #expect(api.contains(#"xBoxParts.append("a%3Db=" + String(xBox.aB))"#))
    #expect(api.contains(#"xBoxParts.append("min%20age=" + fieldText(value))"#))
    // A key is encoded even where no value is.
    #expect(api.contains(#"xAtParts += ["x%2Cy", String(xAt.xY)]"#))
    // A scalar header is sent as it is: `request()` refuses a line break in it.
    #expect(api.contains(#"headerFields["X-Note"] = xNote"#))
    #expect(api.contains(#"cookiePairs.append("mood=\(fieldText(mood.rawValue))")"#))
    #expect(api.contains(#"cookiePairs.append("count=\(count)")"#))
    #expect(
      api.contains(
        #"let namesText = names.map { $0.map { fieldText($0) }.joined(separator: ",") }"#))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  @Test func aNamespaceWithoutSuchValuesHasNoEncoder() throws {
    let paths = """
      {"/a": {"get": {"operationId": "pick",
         "parameters": [
           {"name": "X-Note", "in": "header", "required": true, "schema": {"type": "string"}},
           {"name": "X-Box", "in": "header", "required": true,
            "schema": {"type": "object", "properties": {"w": {"type": "integer"}}}},
           {"name": "count", "in": "cookie", "required": true, "schema": {"type": "integer"}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let api = try #require(source(try generate(document(paths: paths)), "API.swift"))
    #expect(api.contains(#"cookiePairs.append("count=\(count)")"#))
    #expect(!api.contains("fieldText"))
  }
}

@Suite struct SegmentEncodingTests {
  /// RFC 6570 percent-encodes every value of a label or matrix expansion but for unreserved
  /// characters, so a value's `,` `;` `=` are not taken for the style's delimiters; a path
  /// interpolation keeps them, so such values are encoded one by one and put in as they are.
  @Test func textValuesOfLabelAndMatrixSegmentsAreEncodedOneByOne() async throws {
    let paths = """
      {"/a/{tags}/{box}/{ids}/{name}": {"get": {"operationId": "segmentText",
         "parameters": [
           {"name": "tags", "in": "path", "required": true, "style": "label",
            "schema": {"type": "array", "items": {"type": "string"}}},
           {"name": "box", "in": "path", "required": true, "style": "matrix", "explode": true,
            "schema": {"type": "object", "required": ["min age"], "properties": {
              "min age": {"type": "integer"}, "label": {"type": "string"}}}},
           {"name": "ids", "in": "path", "required": true, "style": "matrix",
            "schema": {"type": "array", "items": {"type": "integer"}}},
           {"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths), options: .init(accessLevel: .public))
    #expect(output.warnings.isEmpty)
    let api = try #require(source(output, "API.swift"))
    // The operation's name stays: its labelled parameters tell it from the encoder.
    #expect(api.contains("static func segmentText(\n    tags: [String],"))
    #expect(api.contains("private static func segmentText(_ text: String) -> String {"))
    #expect(
      api.contains("let tagsSegment = tags.map { segmentText($0) }.joined(separator: \",\")"))
    // An object's keys are encoded here, its text values by the encoder; numbers need neither.
    #expect(api.contains("boxParts.append(\"label=\" + segmentText(value))"))
    #expect(api.contains("boxParts.append(\"min%20age=\" + String(box.minAge))"))
    #expect(api.contains("let idsSegment = ids.map(String.init).joined(separator: \",\")"))
    // Encoded pieces go in as they are; the rest, and a simple scalar, as one segment.
    #expect(
      api.contains(
        #"path: "a/.\(raw: tagsSegment)/;\(raw: boxSegment)/;ids=\(idsSegment)/\(name)""#))
    // The operation and the encoder of the same name compile side by side.
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  @Test func aMatrixNameBetweenEncodedValuesIsEncodedToo() throws {
    let paths = """
      {"/a/{tag list}": {"get": {"operationId": "pick",
         "parameters": [{"name": "tag list", "in": "path", "required": true, "style": "matrix",
           "explode": true, "schema": {"type": "array", "items": {"type": "string"}}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let api = try #require(source(try generate(document(paths: paths)), "API.swift"))
    #expect(
      api.contains(
        #"let tagListSegment = tagList.map { segmentText($0) }.joined(separator: ";tag%20list=")"#
      ))
    #expect(api.contains(#"path: "a/;tag%20list=\(raw: tagListSegment)""#))
  }

  @Test func aNamespaceWithoutSuchValuesHasNoEncoder() throws {
    let paths = """
      {"/a/{ids}": {"get": {"operationId": "pick",
         "parameters": [{"name": "ids", "in": "path", "required": true, "style": "label",
           "schema": {"type": "array", "items": {"type": "integer"}}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let api = try #require(source(try generate(document(paths: paths)), "API.swift"))
    #expect(api.contains(#"path: "a/.\(idsSegment)""#))
    #expect(!api.contains("segmentText"))
  }
}
