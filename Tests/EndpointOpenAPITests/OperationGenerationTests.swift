import EndpointOpenAPI
import Testing

@Suite struct OperationGenerationTests {
  static let issues = """
    {"/repos/{owner}/{repo}/issues": {"get": {
      "tags": ["issues"], "operationId": "issues/list-for-repo",
      "summary": "List repository issues",
      "parameters": [
        {"name": "owner", "in": "path", "required": true, "schema": {"type": "string"}},
        {"name": "repo", "in": "path", "required": true, "schema": {"type": "string"}},
        {"name": "per_page", "in": "query", "schema": {"type": "integer"}},
        {"name": "labels", "in": "query", "explode": false,
         "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "in", "in": "query", "required": true, "schema": {"type": "string"}},
        {"name": "session", "in": "cookie", "schema": {"type": "string"}},
        {"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object"}}
      ],
      "responses": {"200": {"description": "OK", "content": {"application/json": {
        "schema": {"type": "array", "items": {"type": "object", "properties": {
          "number": {"type": "integer"}}}}}}}}}}}
    """

  /// The private encoder of a namespace with an unexploded `form` array or object in its
  /// query, as a member of it, followed by a blank line.
  static let segmentText = """
      /// `text` percent-encoded but for letters, digits, `-`, `_` and `~`, so that a value in a
      /// path segment or query keeps its style's delimiters (`.` `,` `;` `=` `&`) to itself.
      private static func segmentText(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = ""
        for byte in text.utf8 {
          switch byte {
          case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            encoded.unicodeScalars.append(Unicode.Scalar(byte))
          default:
            encoded.unicodeScalars += ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
          }
        }
        return encoded
      }

    """

  /// The private encoder of a namespace with a cookie or a header's array or object, as a
  /// member of it, followed by a blank line.
  static let fieldText = """
      /// `text` percent-encoded but for visible ASCII other than `"` `%` `,` `;` `\\`
      /// (RFC 6265's cookie octets, less `%`), so that a header field's or cookie's value keeps
      /// its style's `,` to itself, and a space or line break in it is sent as data.
      private static func fieldText(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = ""
        for byte in text.utf8 {
          if (0x21...0x7E).contains(byte) && !"\\"%,;\\\\".utf8.contains(byte) {
            encoded.unicodeScalars.append(Unicode.Scalar(byte))
          } else {
            encoded.unicodeScalars += ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
          }
        }
        return encoded
      }

    """

  @Test func operationsBecomeFactoriesInTheirTagsNamespace() throws {
    let output = try generate(
      document(paths: Self.issues), options: .init(namespacePrefix: "GitHub"))
    #expect(output.files.map(\.path) == ["GitHubIssues.swift"])
    #expect(
      source(output, "GitHubIssues.swift") == """
        import EndpointJSON

        #if canImport(FoundationEssentials)
          import FoundationEssentials
        #else
          import Foundation
        #endif

        enum GitHubIssues {
          /// List repository issues
          ///
          /// `GET /repos/{owner}/{repo}/issues`
          static func listForRepo(
            owner: String,
            repo: String,
            `in`: String,
            perPage: Int? = nil,
            labels: [String]? = nil,
            session: String? = nil
          ) -> Endpoint<[ListForRepoResponseItem]> {
            var queryItems: [URLQueryItem] = []
            if let perPage {
              queryItems.append(URLQueryItem(name: "per_page", value: String(perPage)))
            }
            queryItems.append(URLQueryItem(name: "in", value: `in`))
            var rawQuery: [String] = []
            if let labels {
              let queryValues = labels.map { segmentText($0) }
              rawQuery.append("labels=" + queryValues.joined(separator: ","))
            }
            var headerFields: [String: String] = [:]
            var cookiePairs: [String] = []
            if let session {
              cookiePairs.append("session=\\(fieldText(session))")
            }
            if !cookiePairs.isEmpty {
              headerFields["Cookie"] = cookiePairs.joined(separator: "; ")
            }
            return Endpoint(
              json: .get,
              path: "repos/\\(owner)/\\(repo)/issues?\\(raw: rawQuery.joined(separator: "&"))",
              query: queryItems,
              headers: headerFields
            )
          }

        \(Self.segmentText)
        \(Self.fieldText)
          struct ListForRepoResponseItem: Codable, Sendable, Hashable {
            var number: Int?
          }
        }

        """)
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1repos~1{owner}~1{repo}~1issues/get/parameters/6/schema: a query parameter "
          + "of type [String: JSONValue] in the deepObject style is not supported yet; the "
          + "optional parameter is left out"
      ])
  }

  @Test func aSecondSuccessWithOtherContentNarrowsTheAcceptedStatus() throws {
    let paths = """
      {"/jobs": {"post": {"operationId": "startJob",
        "parameters": [
          {"name": "Authorization", "in": "header", "required": true,
           "schema": {"type": "string"}}],
        "responses": {
          "200": {"description": "Done", "content": {"application/json": {
            "schema": {"type": "integer"}}}},
          "202": {"description": "Queued"}}}}}
      """
    let output = try generate(document(paths: paths), options: .init(namespacePrefix: "shop"))
    #expect(
      source(output, "Shop.swift")?.contains(
        """
          static func startJob() -> Endpoint<Int> {
            Endpoint(json: .post, path: "jobs", expecting: .codes(200))
          }
        """) == true)
  }

  @Test func anEnumDeclaredInAParameterNestsInTheNamespaceOnlyWhenTheOperationIsKept() throws {
    let paths = """
      {"/issues": {
        "get": {"tags": ["issues"], "operationId": "list", "parameters": [
          {"name": "state", "in": "query", "schema": {"type": "string", "enum": ["open", "all"]}}],
          "responses": {"204": {"description": "No content"}}},
        "post": {"tags": ["issues"], "operationId": "create", "parameters": [
          {"name": "kind", "in": "query", "schema": {"type": "string", "enum": ["bug"]}}],
          "requestBody": {"content": {"text/plain": {"schema": {"type": "string"}}}},
          "responses": {"204": {"description": "No content"}}}}}
      """
    let output = try generate(document(paths: paths))
    let issues = try #require(source(output, "Issues.swift"))
    #expect(issues.contains("static func list(state: ListState? = nil) -> Endpoint<Void> {"))
    #expect(issues.contains(#"URLQueryItem(name: "state", value: state.rawValue)"#))
    #expect(issues.contains("struct ListState: RawRepresentable, Codable, Sendable, Hashable {"))
    #expect(!issues.contains("CreateKind"))
    #expect(output.warnings.map(\.pointer) == ["#/paths/~1issues/post/requestBody/content"])
  }

  @Test func tagsAndOperationsSelectWhatIsGenerated() throws {
    let paths = """
      {"/a": {"get": {"tags": ["alpha"], "operationId": "getA",
                      "responses": {"204": {"description": "No content"}}}},
       "/b": {"get": {"tags": ["beta"], "operationId": "getB",
                      "responses": {"204": {"description": "No content"}}}},
       "/c": {"get": {"tags": ["gamma"], "operationId": "getC",
                      "responses": {"204": {"description": "No content"}}}}}
      """
    let output = try generate(
      document(paths: paths), options: .init(tags: ["alpha"], operations: ["getC"]))
    #expect(output.files.map(\.path) == ["Alpha.swift", "Gamma.swift"])
    #expect(source(output, "Alpha.swift")?.contains("static func getA() -> Endpoint<Void>") == true)
  }

  @Test func publicAccessDocumentsEveryDeclaration() throws {
    let output = try generate(
      document(
        schemas: #"{"Item": {"type": "object", "properties": {"id": {"type": "integer"}}}}"#),
      options: .init(accessLevel: .public))
    #expect(
      source(output, "Models/Item.swift") == """
        /// The Item schema.
        public struct Item: Codable, Sendable, Hashable {
          /// The `id` property.
          public var id: Int?

          /// Creates a value from its properties.
          public init(id: Int? = nil) {
            self.id = id
          }
        }

        """)
  }

  @Test func anOperationWithoutAJSONSuccessIsSkippedAndReported() throws {
    let paths = """
      {"/report": {"get": {"operationId": "report", "responses": {"200": {"description": "CSV",
        "content": {"text/csv": {"schema": {"type": "string"}}}}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.files.isEmpty)
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1report/get/responses/200/content: a response in text/csv is not supported "
          + "yet (only JSON, form and binary are); the operation is skipped"
      ])
  }

  @Test func documentedErrorBodiesGetAnEnumThatDecodesThemByStatus() throws {
    let output = try generate(
      document(
        schemas: """
          {"Problem": {"type": "object", "properties": {"title": {"type": "string"}}}}
          """,
        paths: """
          {"/orders": {"post": {"tags": ["orders"], "operationId": "create",
            "responses": {"201": {"description": "Created."},
              "422": {"description": "Invalid.", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Problem"}}}},
              "4XX": {"description": "Refused.", "content": {"text/plain": {}}},
              "default": {"description": "Failed.", "content": {"application/json": {
                "schema": {"type": "object", "properties": {"message": {"type": "string"}}}}}}}}}}
          """), options: .init(accessLevel: .public))
    #expect(
      source(output, "Orders.swift") == """
        import EndpointJSON

        #if canImport(FoundationEssentials)
          import FoundationEssentials
        #else
          import Foundation
        #endif

        /// The Orders endpoints.
        public enum Orders {
          /// `POST /orders`
          ///
          /// Error bodies, decoded from the `UnexpectedResponse` the call throws by `CreateError(_:)`:
          /// `422` a `Problem`, any other status a `CreateErrorDefault`.
          public static func create() -> Endpoint<Void> {
            Endpoint(json: .post, path: "orders")
          }

          /// The error bodies `create` documents, by status.
          public enum CreateError: Sendable, Hashable {
            /// A `422`.
            case status422(Problem)
            /// Any other status.
            case other(CreateErrorDefault)

            /// The body of a response `create` does not accept, decoded as its status
            /// documents; `nil` when the document describes none for the status.
            ///
            /// - Throws: `ParsingFailure` when the body is not what the document describes.
            public init?(_ error: UnexpectedResponse) throws(ParsingFailure) {
              switch error.status {
              case 422:
                self = try .status422(error.decodeBody())
              case 400..<500:
                return nil
              default:
                self = try .other(error.decodeBody())
              }
            }
          }

          /// The CreateErrorDefault schema.
          public struct CreateErrorDefault: Codable, Sendable, Hashable {
            /// The `message` property.
            public var message: String?

            /// Creates a value from its properties.
            public init(message: String? = nil) {
              self.message = message
            }
          }
        }

        """)
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1orders/post/responses/4XX/content: an error body in text/plain is not "
          + "supported yet (only JSON, form and binary are); the status has no case in the error "
          + "body enum"
      ])
  }

  @Test func aBinaryBodyIsDataSentWithItsMediaType() throws {
    let paths = """
      {"/blobs": {"put": {"operationId": "store",
        "requestBody": {"required": true, "content": {"*/*": {}}},
        "responses": {"200": {"description": "The stored bytes.", "content": {
          "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(
      source(output, "API.swift")?.contains(
        """
          static func store(body: Data) -> Endpoint<Data> {
            Endpoint(
              .put,
              path: "blobs",
              payload: .data(body, contentType: "application/octet-stream"),
              parser: .data
            )
          }
        """) == true)
    #expect(output.warnings.isEmpty)
  }

  @Test func aFormFieldThatIsNotAScalarIsReportedAndTheOperationSkipped() throws {
    let paths = """
      {"/login": {"post": {"operationId": "logIn",
        "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
          "type": "object", "properties": {"profile": {"type": "object", "properties": {
            "name": {"type": "string"}}}}}}}},
        "responses": {"204": {"description": "Logged in."}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.files.isEmpty)
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1login/post/requestBody/content/application~1x-www-form-urlencoded/schema/"
          + "properties/profile: a form field of type Profile is not supported yet; "
          + "the operation is skipped"
      ])
  }

  @Test func queryObjectsAndDelimitedArraysFollowTheirStyle() throws {
    let paths = """
      {"/items": {"get": {"tags": ["items"], "operationId": "search", "parameters": [
        {"name": "ids", "in": "query", "style": "pipeDelimited", "explode": false,
         "schema": {"type": "array", "items": {"type": "integer"}}},
        {"name": "words", "in": "query", "required": true, "style": "spaceDelimited",
         "explode": false, "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object",
         "required": ["kind"], "properties": {"kind": {"type": "string"},
           "max": {"type": "integer"}}}},
        {"name": "page", "in": "query", "schema": {"type": "object", "properties": {
         "size": {"type": "integer"}, "after": {"type": "string"}}}},
        {"name": "point", "in": "query", "explode": false, "schema": {"type": "object",
         "properties": {"x": {"type": "number"}, "y": {"type": "number"}}}},
        {"name": "X-Tags", "in": "header", "schema": {"type": "array",
         "items": {"type": "string"}}},
        {"name": "bad", "in": "query", "style": "deepObject", "schema": {"type": "string"}}
      ], "responses": {"204": {"description": "ok"}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(
      source(output, "Items.swift") == """
        import EndpointJSON

        #if canImport(FoundationEssentials)
          import FoundationEssentials
        #else
          import Foundation
        #endif

        enum Items {
          /// `GET /items`
          static func search(
            words: [String],
            ids: [Int]? = nil,
            filter: SearchFilter? = nil,
            page: SearchPage? = nil,
            point: SearchPoint? = nil,
            xTags: [String]? = nil
          ) -> Endpoint<Void> {
            var queryItems: [URLQueryItem] = []
            if let ids {
              queryItems.append(
                URLQueryItem(name: "ids", value: ids.map(String.init).joined(separator: "|")))
            }
            queryItems.append(URLQueryItem(name: "words", value: words.joined(separator: " ")))
            if let filter {
              queryItems.append(URLQueryItem(name: "filter[kind]", value: filter.kind))
              if let value = filter.max {
                queryItems.append(URLQueryItem(name: "filter[max]", value: String(value)))
              }
            }
            if let page {
              if let value = page.after {
                queryItems.append(URLQueryItem(name: "after", value: value))
              }
              if let value = page.size {
                queryItems.append(URLQueryItem(name: "size", value: String(value)))
              }
            }
            var rawQuery: [String] = []
            if let point {
              var objectParts: [String] = []
              if let value = point.x {
                objectParts += ["x", segmentText(String(value))]
              }
              if let value = point.y {
                objectParts += ["y", segmentText(String(value))]
              }
              rawQuery.append("point=" + objectParts.joined(separator: ","))
            }
            var headerFields: [String: String] = [:]
            if let xTags {
              headerFields["X-Tags"] = xTags.map { fieldText($0) }.joined(separator: ",")
            }
            return Endpoint(
              json: .get,
              path: "items?\\(raw: rawQuery.joined(separator: "&"))",
              query: queryItems,
              headers: headerFields
            )
          }

        \(Self.segmentText)
        \(Self.fieldText)
          struct SearchFilter: Codable, Sendable, Hashable {
            var kind: String
            var max: Int?
          }

          struct SearchPage: Codable, Sendable, Hashable {
            var after: String?
            var size: Int?
          }

          struct SearchPoint: Codable, Sendable, Hashable {
            var x: Double?
            var y: Double?
          }
        }

        """)
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1items/get/parameters/6/schema: a query parameter of type String in the "
          + "deepObject style is not supported yet; the optional parameter is left out"
      ])
  }

  /// A JSON body of another media type than `application/json`, such as Kubernetes's patches,
  /// is sent with it: a server that reads merge patches refuses `application/json`. When the
  /// body lists several, the doc comment says which is sent and how to send another.
  @Test func aJSONBodyOfAnotherMediaTypeIsSentWithIt() throws {
    let paths = """
      {"/pods/{name}": {"patch": {"operationId": "patchPod",
        "parameters": [{"name": "name", "in": "path", "required": true,
          "schema": {"type": "string"}}],
        "requestBody": {"required": true, "content": {
          "application/strategic-merge-patch+json": {"schema": {"type": "object"}},
          "application/merge-patch+json": {"schema": {"type": "object"}}}},
        "responses": {"204": {"description": "Patched."}}}},
       "/pods": {"post": {"operationId": "createPod",
        "parameters": [{"name": "X-Trace", "in": "header", "schema": {"type": "string"}}],
        "requestBody": {"content": {"application/vnd.pod+json; charset=utf-8": {
          "schema": {"type": "object"}}}},
        "responses": {"204": {"description": "Created."}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.warnings.isEmpty)
    #expect(
      source(output, "API.swift")?.contains(
        """
          /// `PATCH /pods/{name}`
          ///
          /// The body is sent as `application/merge-patch+json`; to send it as
          /// `application/strategic-merge-patch+json`, which the API also reads, set the endpoint's
          /// `Content-Type` header field.
          static func patchPod(name: String, body: [String: JSONValue]) -> Endpoint<Void> {
            var headerFields: [String: String] = [:]
            headerFields["Content-Type"] = "application/merge-patch+json"
            return Endpoint(json: .patch, path: "pods/\\(name)", headers: headerFields, body: body)
          }
        """) == true)
    // An optional body: the field is set only where the body is sent.
    #expect(
      source(output, "API.swift")?.contains(
        """
            guard let body else {
              return Endpoint(json: .post, path: "pods", headers: headerFields)
            }
            headerFields["Content-Type"] = "application/vnd.pod+json; charset=utf-8"
            return Endpoint(json: .post, path: "pods", headers: headerFields, body: body)
        """) == true)
  }

  /// A string of any media type (`*/*`), such as what Kubernetes's proxy answers, is the
  /// body's bytes, not a JSON string literal; a `*/*` body of an object is still sent as JSON.
  @Test func aStringOfAnyMediaTypeIsBytesButAnObjectIsJSON() throws {
    let paths = """
      {"/nodes/{name}/proxy": {"get": {"operationId": "proxyNode",
        "parameters": [{"name": "name", "in": "path", "required": true,
          "schema": {"type": "string"}}],
        "responses": {"200": {"description": "OK", "content": {
          "*/*": {"schema": {"type": "string"}}}}}}},
       "/nodes": {"post": {"operationId": "createNode",
        "requestBody": {"required": true, "content": {"*/*": {"schema": {
          "type": "object", "properties": {"name": {"type": "string"}}}}}},
        "responses": {"201": {"description": "Created.", "content": {"*/*": {"schema": {
          "type": "object", "properties": {"name": {"type": "string"}}}}}}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.warnings.isEmpty)
    let api = try #require(source(output, "API.swift"))
    #expect(
      api.contains(
        """
          static func proxyNode(name: String) -> Endpoint<Data> {
            Endpoint(.get, path: "nodes/\\(name)/proxy", parser: .data)
          }
        """))
    #expect(
      api.contains(
        """
          static func createNode(body: CreateNodeBody) -> Endpoint<CreateNodeResponse> {
            Endpoint(json: .post, path: "nodes", body: body)
          }
        """))
  }

  @Test func aPathTooLongForItsLineIsBrokenAfterASlashWithTheSameText() throws {
    let paths = """
      {"/organizations/{organization}/repositories/{repository}/pull-requests/{number}/\
      review-comments": {
         "get": {"operationId": "listComments", "parameters": [
           {"name": "organization", "in": "path", "required": true, "schema": {"type": "string"}},
           {"name": "repository", "in": "path", "required": true, "schema": {"type": "string"}},
           {"name": "number", "in": "path", "required": true, "schema": {"type": "integer"}}],
         "responses": {"204": {"description": "OK"}}}}}
      """
    let api = try #require(source(try generate(document(paths: paths)), "API.swift"))
    // On lines of their own, broken after a slash where they would not fit; a backslash at
    // the end of a line adds nothing to the literal.
    #expect(
      api.contains(
        #"""
            Endpoint(
              json: .get,
              path: """
                organizations/\(organization)/repositories/\(repository)/pull-requests/\(number)/\
                review-comments
                """
            )
        """#))
    // Every line fits, but the doc comment's, which quotes the path.
    #expect(api.split(separator: "\n").allSatisfy { $0.count <= 100 || $0.hasPrefix("  ///") })
  }
}
