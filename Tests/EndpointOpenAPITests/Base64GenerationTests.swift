import EndpointOpenAPI
import Testing

/// Base64 text (`format: byte`) as `Data`, coded by the shared `Base64` wrapper whatever the
/// coder's data strategy: properties (required, optional, nullable, arrays, dictionaries, with
/// the hand-written coding too), whole bodies and answers, error bodies and variants; a
/// parameter stays its base64 text.
@Suite struct Base64GenerationTests {
  static let schemas = """
    {"Blob": {"type": "string", "format": "byte"},
     "Sealed": {"type": "object", "required": ["body", "seal"], "properties": {
       "body": {"type": "string", "format": "byte"},
       "seal": {"type": ["string", "null"], "format": "byte"},
       "note": {"type": "string", "format": "byte"},
       "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Blob"}},
       "keys": {"type": "object", "additionalProperties": {"type": "string", "format": "byte"}}}},
     "Either": {"oneOf": [{"type": "string", "format": "byte"}, {"type": "integer"}]},
     "Extra": {"type": "object", "properties": {"name": {"type": "string"}},
       "additionalProperties": {"type": "string", "format": "byte"}}}
    """

  static let paths = """
    {"/blobs/{id}": {"put": {"operationId": "putBlob",
       "parameters": [
         {"name": "id", "in": "path", "required": true,
          "schema": {"type": "string", "format": "byte"}},
         {"name": "tags", "in": "query",
          "schema": {"type": "array", "items": {"type": "string", "format": "byte"}}}],
       "requestBody": {"required": true, "content": {"application/json": {
         "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Blob"}}}}},
       "responses": {
         "200": {"description": "OK", "content": {"application/json": {
           "schema": {"type": ["string", "null"], "format": "byte"}}}},
         "400": {"description": "Bad", "content": {"application/json": {
           "schema": {"$ref": "#/components/schemas/Blob"}}}}}}}}
    """

  /// Every use, and the one construct left out: extra properties of base64 beside properties.
  static func output() throws -> OpenAPIGenerator.Output {
    let output = try generate(document(schemas: schemas, paths: paths))
    #expect(
      output.files.map(\.path) == [
        "API.swift", "Models/Blob.swift", "Models/Either.swift", "Models/Extra.swift",
        "Models/Sealed.swift", "Support/Base64.swift",
      ])
    #expect(
      output.warnings.map(\.description) == [
        "#/components/schemas/Extra/additionalProperties: additionalProperties of base64 bytes "
          + "beside properties is not kept yet; extra properties are ignored when decoding"
      ])
    return output
  }

  /// Properties are `Data` behind the wrapper: a required one, an optional one (`nil` when
  /// absent), a required nullable one (decoded as an optional wrapper), arrays and dictionaries
  /// of them, through a `$ref` to a base64 schema too, which is a `Data` alias.
  @Test func base64PropertiesAreDataCodedByTheWrapper() async throws {
    let output = try Self.output()
    let sealed = try #require(source(output, "Models/Sealed.swift"))
    #expect(
      sealed.contains(
        """
        struct Sealed: Codable, Sendable, Hashable {
          @Base64 var body: Data
          @Base64 var keys: [String: Data]? = nil
          @Base64 var note: Data? = nil
          @Base64 var parts: [Data]? = nil
          @Base64 var seal: Data? = nil
        """))
    #expect(
      sealed.contains(
        """
            self._body = try container.decode(Base64<Data>.self, forKey: .body)
            self._keys = try container.decode(Base64<[String: Data]?>.self, forKey: .keys)
            self._note = try container.decode(Base64<Data?>.self, forKey: .note)
            self._parts = try container.decode(Base64<[Data]?>.self, forKey: .parts)
            self.seal = try container.decode(Base64<Data>?.self, forKey: .seal)?.wrappedValue
        """))
    #expect(
      sealed.contains(
        "try container.encode(self.seal.map(Base64.init(wrappedValue:)), forKey: .seal)"))
    #expect(source(output, "Models/Blob.swift")?.hasSuffix("typealias Blob = Data\n") == true)
    let support = try #require(source(output, "Support/Base64.swift"))
    #expect(support.contains("struct Base64<Value: Base64Value>: Codable, Sendable, Hashable {"))
    #expect(support.contains(#"debugDescription: "Not base64 text: \(text.prefix(40))")"#))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// A whole body and answer go through the wrapper, as do an error body and a variant; a path
  /// or query parameter stays `String`, its base64 text as it is.
  @Test func base64BodiesAnswersErrorsAndVariantsAreData() throws {
    let output = try Self.output()
    let api = try #require(source(output, "API.swift"))
    #expect(
      api.contains(
        """
          static func putBlob(id: String, body: [Data], tags: [String]? = nil) -> Endpoint<Data?> {
        """))
    #expect(
      api.contains(
        """
            return Endpoint<Base64<Data?>>(
              json: .put,
              path: "blobs/\\(id)",
              query: queryItems,
              body: Base64(wrappedValue: body)
            ).map(\\.wrappedValue)
        """))
    #expect(
      api.contains(
        "self = try .status400(error.decodeBody(as: Base64<Data>.self).wrappedValue)"))
    let either = try #require(source(output, "Models/Either.swift"))
    #expect(either.contains("if let value = try? Base64<Data>(from: decoder).wrappedValue {"))
    #expect(either.contains("try Base64(wrappedValue: value).encode(to: encoder)"))
  }

  /// A form field and a multipart text part of base64 are its base64 text; the body's struct,
  /// nested in the namespace, has the wrapper, so the support file is written.
  @Test func base64FormFieldsAndPartsAreTheirText() async throws {
    let object = """
      {"type": "object", "required": ["seal"], "properties": {
         "seal": {"type": "string", "format": "byte"},
         "parts": {"type": "array", "items": {"type": "string", "format": "byte"}}}}
      """
    let paths = """
      {"/form": {"post": {"operationId": "sendForm", "requestBody": {"required": true,
         "content": {"application/x-www-form-urlencoded": {"schema": \(object)}}},
         "responses": {"204": {"description": "OK"}}}},
       "/parts": {"post": {"operationId": "sendParts", "requestBody": {"required": true,
         "content": {"multipart/form-data": {"schema": \(object)}}},
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.warnings.isEmpty)
    #expect(output.files.map(\.path) == ["API.swift", "Support/Base64.swift"])
    let api = try #require(source(output, "API.swift"))
    #expect(api.contains(#"formFields.append(("parts", item.base64EncodedString()))"#))
    #expect(api.contains(#"formFields.append(("seal", body.seal.base64EncodedString()))"#))
    #expect(
      api.contains(
        #"multipartParts.append(.text(name: "seal", value: body.seal.base64EncodedString()))"#))
    #expect(api.contains("@Base64 var seal: Data\n"))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// A `oneOf` of base64 beside a string cannot match base64 text exactly once: it is reported
  /// and skipped; an `anyOf` takes the first match.
  @Test func aOneOfOfBase64BesideAStringIsReported() throws {
    let schemas = """
      {"Seal": {"oneOf": [{"type": "string"}, {"type": "string", "format": "byte"}]},
       "AnySeal": {"anyOf": [{"type": "string", "format": "byte"}, {"type": "string"}]}}
      """
    let output = try generate(document(schemas: schemas))
    #expect(
      output.warnings.map(\.description) == [
        "#/components/schemas/Seal/oneOf/1: this variant and String both read base64 text, "
          + "so it matches no variant exactly once; the schema is skipped"
      ])
    #expect(output.files.map(\.path) == ["Models/AnySeal.swift", "Support/Base64.swift"])
    #expect(source(output, "Models/AnySeal.swift")?.contains("case data(Data)") == true)
  }

  /// A page's base64 cursor is `Data`, sent back as its base64 text, the next page's `String`
  /// parameter.
  @Test func aBase64CursorIsSentAsItsText() async throws {
    let paths = """
      {"/events": {"get": {"operationId": "listEvents",
         "parameters": [{"name": "after", "in": "query",
           "schema": {"type": "string", "format": "byte"}}],
         "responses": {"200": {"description": "OK", "content": {"application/json": {
           "schema": {"type": "object", "properties": {
             "next": {"type": "string", "format": "byte"}}}}}}}}}}
      """
    let pagination = OpenAPIGenerator.Pagination(
      style: .cursor, cursorParameter: "after", cursorField: "next")
    let output = try generate(document(paths: paths), options: .init(pagination: pagination))
    #expect(output.warnings.isEmpty)
    let api = try #require(source(output, "API.swift"))
    #expect(api.contains("static func listEvents(after: String? = nil)"))
    #expect(api.contains("@Base64 var next: Data? = nil"))
    #expect(
      api.contains(
        """
            .cursor(name: "after") { page in
              page.next?.base64EncodedString()
            }
        """))
    try await TypeCheckTests.expectTypeChecks(output.files)
  }

  /// Base64 only in a parameter, which stays `String`: no support file.
  @Test func aBase64ParameterAloneNeedsNoSupportFile() throws {
    let paths = """
      {"/keys/{key}": {"get": {"operationId": "showKey", "parameters": [
         {"name": "key", "in": "path", "required": true,
          "schema": {"type": "string", "format": "byte"}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.warnings.isEmpty)
    #expect(output.files.map(\.path) == ["API.swift"])
    #expect(source(output, "API.swift")?.contains("static func showKey(key: String)") == true)
  }
}
