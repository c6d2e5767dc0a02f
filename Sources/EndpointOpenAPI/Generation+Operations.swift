import Foundation

/// Operations to endpoint factories, grouped in one namespace per tag.
extension Generation {
  struct NamespaceDecl {
    var name: String
    var doc: String?
    /// Each operation's source, indented as a member of the namespace.
    var operations: [[String]] = []
    var scope: NestedScope
    var functions = NameScope()
    /// The canned answers of the operations, for the stub file.
    var stubs: [StubDecl] = []
    /// The operations without one: `name`: `GET /path`.
    var unstubbed: [String] = []
    /// Whether an operation calls the private `segmentText(_:)` that percent-encodes a value of
    /// a path segment (see `encodesEachValue`).
    var usesSegmentEncoder = false
    /// Whether an operation calls the private `fieldText(_:)` that percent-encodes a value of a
    /// header field or cookie.
    var usesFieldEncoder = false
    /// Whether an operation's parameter or whole body is a date-time, written by the `RFC3339`
    /// wrapper of the support file.
    var usesDateTime = false
    /// Whether an operation's whole body, answer or error body is base64 bytes, coded by the
    /// `Base64` wrapper of the support file.
    var usesBase64 = false
    /// Whether an operation's parameter or whole body is a calendar day.
    var usesCalendarDay = false
  }

  struct ParameterDecl {
    enum Location: String {
      case path
      case query
      case header
      case cookie
    }

    var wireName: String
    var location: Location
    var name: String
    var type: TypeRef
    var required: Bool
    var explode: Bool
    var style: String
    /// An object's properties, for an object parameter.
    var fields: [PropertyDecl]?
    var doc: String?
  }

  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

  mutating func translateOperations() -> [NamespaceDecl] {
    var namespaces: [String: NamespaceDecl] = [:]
    var order: [String] = []
    var tagDocs: [String: String] = [:]
    for tag in document.root["tags"]?.array ?? [] {
      if let name = tag["name"]?.string, let doc = tag["description"]?.string {
        tagDocs[name] = doc
      }
    }
    let paths = document.root["paths"]?.object ?? [:]
    let pathsPointer = JSONPointer.appending("paths", to: JSONPointer.root)
    for path in paths.keys.sorted() {
      var pathItem = paths[path]!
      var pathPointer = JSONPointer.appending(path, to: pathsPointer)
      if let reference = pathItem["$ref"]?.string {
        guard let (target, targetPointer) = document.resolve(reference) else {
          warn(
            Unsupported(
              pointer: JSONPointer.appending("$ref", to: pathPointer),
              message: "a reference to another document (\(reference)) is not read yet"),
            "the path is skipped")
          continue
        }
        (pathItem, pathPointer) = (target, targetPointer)
      }
      for method in Self.methods {
        guard let operation = pathItem[method] else { continue }
        let tags = (operation["tags"]?.array ?? []).compactMap(\.string)
        guard options.includes(operationID: operation["operationId"]?.string, tags: tags) else {
          continue
        }
        let tag =
          options.namespaces == .tags ? tags.first ?? "" : Self.firstLiteralSegment(of: path)
        if namespaces[tag] == nil {
          order.append(tag)
          namespaces[tag] = makeNamespace(
            tag: tag, doc: options.namespaces == .tags ? tagDocs[tag] : nil)
        }
        let pointer = JSONPointer.appending(method, to: pathPointer)
        do {
          let (lines, name) = try translate(
            operation, method: method, path: path, pathItem: pathItem, pointer: pointer,
            namespace: &namespaces[tag]!)
          namespaces[tag]!.operations.append(lines)
          if options.stubs != nil {
            if let stub = stub(
              operation, function: name, method: method, path: path, pointer: pointer)
            {
              if let other = namespaces[tag]!.stubs.first(where: {
                ($0.method, $0.pattern) == (method, stub.pattern)
              }) {
                warn(
                  Unsupported(
                    pointer: pointer,
                    message: "its stub would answer the requests of \(other.function) "
                      + "(\(other.path)), as one segment matches any text"),
                  "the stub leaves it out")
              } else {
                namespaces[tag]!.stubs.append(stub)
              }
            } else {
              namespaces[tag]!.unstubbed.append("\(name)`: `\(method.uppercased()) \(path)")
            }
          }
        } catch {
          warn(error, "the operation is skipped")
        }
      }
    }
    return order.map { namespaces[$0]! }
  }

  /// The first segment of a path that is not a parameter, or `""`.
  static func firstLiteralSegment(of path: String) -> String {
    let segments = path.split(separator: "/").map(String.init)
    return segments.first { !$0.isEmpty && !$0.contains("{") } ?? ""
  }

  private mutating func makeNamespace(tag: String, doc: String?) -> NamespaceDecl {
    let prefix = SwiftNames.words(options.namespacePrefix).map {
      $0.prefix(1).uppercased() + $0.dropFirst()
    }.joined()
    var name: String
    if tag.isEmpty {
      name = prefix.isEmpty ? "API" : prefix
    } else {
      name = prefix + SwiftNames.typeName(tag)
    }
    if name.first!.isNumber { name = "_" + name }
    if SwiftNames.reservedTypes.contains(name) || topNames.isTaken(name) { name += "API" }
    name = topNames.claim(name)
    return NamespaceDecl(
      name: name, doc: doc,
      scope: NestedScope(names: NameScope(reserved: [name], outer: topNames.lowercasedNames)))
  }

  private mutating func translate(
    _ operation: JSONNode, method: String, path: String, pathItem: JSONNode, pointer: String,
    namespace: inout NamespaceDecl
  ) throws(Unsupported) -> (lines: [String], name: String) {
    let operationID = operation["operationId"]?.string
    let baseName =
      operationID.map { SwiftNames.memberName(String($0.split(separator: "/").last ?? "")) }
      ?? SwiftNames.memberName(method + " " + path.replacingOccurrences(of: "{", with: " by "))
    let functionType = SwiftNames.typeName(baseName)
    // Types declared in place nest in the namespace only if the whole operation is generated.
    var scope: NestedScope? = namespace.scope
    var locals = NameScope(
      reserved: [
        "queryItems", "rawQuery", "queryValues", "headerFields", "cookiePairs", "formFields",
        "objectParts", "body", "multipartParts", "multipartPayload", "jsonEncoder",
      ])
    let parameters = try parameters(
      of: operation, pathItem: pathItem, pointer: pointer, locals: &locals,
      typePrefix: functionType, scope: &scope)

    // The path, each parameter one segment.
    var pathLiteral = ""
    var pathStatements: [String] = []
    var usesSegmentEncoder = false
    var rest = Substring(path.hasPrefix("/") ? String(path.dropFirst()) : path)
    while let open = rest.firstIndex(of: "{") {
      pathLiteral += Self.escapedLiteral(rest[..<open])
      guard let close = rest[open...].firstIndex(of: "}") else {
        throw Unsupported(pointer: pointer, message: "the path \(path) has an unclosed {")
      }
      let variable = String(rest[rest.index(after: open)..<close])
      guard
        let parameter = parameters.first(where: { $0.location == .path && $0.wireName == variable })
      else {
        throw Unsupported(
          pointer: pointer, message: "the path parameter {\(variable)} is not described")
      }
      let scalar = parameter.type.isScalar
      let encodes = Self.encodesEachValue(parameter)
      usesSegmentEncoder = usesSegmentEncoder || encodes
      let piece = Self.pathPiece(
        parameter, segment: scalar ? "" : locals.claim(parameter.name + "Segment"),
        parts: parameter.fields == nil ? "" : locals.claim(parameter.name + "Parts"),
        encoder: encodes ? Self.segmentEncoder : nil)
      pathStatements += piece.statements
      pathLiteral +=
        Self.escapedLiteral(piece.prefix) + "\\(" + (piece.raw ? "raw: " : "") + piece.expression
        + ")"
      rest = rest[rest.index(after: close)...]
    }
    pathLiteral += Self.escapedLiteral(rest)

    // The body: JSON, or bytes of one media type.
    var body: (type: TypeRef, required: Bool, doc: String?)?
    var payload = "json(body)"
    // A date-time body, or an array or dictionary of them, is sent as the wrapper writes it.
    var jsonBody = "body"
    var formLines: [String] = []
    var jsonContentType: String?
    var mediaNote: String?
    if var requestBody = operation["requestBody"] {
      var bodyPointer = JSONPointer.appending("requestBody", to: pointer)
      if let reference = requestBody["$ref"]?.string,
        let (target, targetPointer) = document.resolve(reference)
      {
        (requestBody, bodyPointer) = (target, targetPointer)
      }
      var type = TypeRef.data
      if let contentType = Self.binaryMediaType(in: requestBody) {
        payload = "data(body, contentType: \"\(Self.escapedLiteral(contentType))\")"
      } else if let (schema, schemaPointer) = Self.formSchema(in: requestBody, at: bodyPointer) {
        type = try typeRef(
          schema, at: schemaPointer, suggested: functionType + "Body", scope: &scope
        ).type
        formLines = try formStatements(type, at: schemaPointer, scope: scope)
        payload = "formURLEncoded(formFields)"
      } else if let multipart = Self.multipartBody(in: requestBody, at: bodyPointer) {
        type = try multipartType(multipart, suggested: functionType + "Body", scope: &scope)
        formLines = try multipartStatements(type, multipart, scope: scope)
        payload = "multipartPayload"
      } else {
        let (schema, schemaPointer) = try jsonSchema(
          in: requestBody, at: bodyPointer, what: "a request body")
        type = dated(
          try typeRef(
            schema, at: schemaPointer, suggested: functionType + "Body", scope: &scope
          ).type, schema)
        if let wrapper = type.codingWrapper {
          jsonBody = "\(wrapper)(wrappedValue: body)"
          payload = "json(\(jsonBody))"
        }
        jsonContentType = Self.jsonContentType(of: requestBody)
        mediaNote = Self.jsonMediaNote(of: requestBody)
      }
      body = (type, requestBody["required"]?.bool == true, Self.description(of: requestBody))
    }

    // The success response: the first 2xx, decoded as JSON, or no content.
    let responses = operation["responses"]?.object ?? [:]
    let responsesPointer = JSONPointer.appending("responses", to: pointer)
    let successes = responses.keys.filter { $0.hasPrefix("2") }.sorted()
    guard let success = successes.first else {
      throw Unsupported(pointer: responsesPointer, message: "no 2xx response is described")
    }
    var resultType = "Void"
    var resultRef: TypeRef?
    // A date-time answer, or an array or dictionary of them, is decoded by the wrapper.
    var decodedAs: String?
    // The answer's type, nullable or not.
    var answer: TypeRef?
    var expecting: String?
    var parser: String?
    let successNode = try responseNode(
      responses[success]!, at: JSONPointer.appending(success, to: responsesPointer))
    if let content = successNode.node["content"]?.object, !content.isEmpty,
      Self.binaryMediaType(in: successNode.node) != nil
    {
      guard successes.count == 1 else {
        throw Unsupported(
          pointer: responsesPointer,
          message: "a binary response beside other 2xx responses is not supported yet")
      }
      resultType = "Data"
      parser = ".data"
    } else if let content = successNode.node["content"]?.object, !content.isEmpty {
      let (schema, schemaPointer) = try jsonSchema(
        in: successNode.node, at: successNode.pointer, what: "a response")
      let resolved = try typeRef(
        schema, at: schemaPointer, suggested: functionType + "Response",
        scope: &scope)
      let type = dated(resolved.type, schema)
      answer = type
      resultType = type.code + (resolved.nullable ? "?" : "")
      resultRef = resolved.nullable ? nil : type
      if let wrapper = type.codingWrapper { decodedAs = "\(wrapper)<\(resultType)>" }
      let others = try successes.dropFirst().map { code throws(Unsupported) in
        try responseNode(responses[code]!, at: JSONPointer.appending(code, to: responsesPointer))
          .node["content"]
      }
      if others.contains(where: { $0 != .object(content) }), Int(success) != nil {
        expecting = ".codes(\(success))"
      }
    }

    let errors = errorBodies(
      responses, at: responsesPointer, functionType: functionType, scope: &scope)
    let errorEnum = errors.isEmpty ? nil : scope!.names.claim(functionType + "Error")

    // The signature: path parameters, required ones, then those with defaults.
    let ordered =
      parameters.filter { $0.location == .path }
      + parameters.filter { $0.location != .path && $0.required }
    let optional = parameters.filter { $0.location != .path && !$0.required }
    var signature = ordered.map { "\(SwiftNames.escaped($0.name)): \($0.type.code)" }
    if let body, body.required { signature.append("body: \(body.type.code)") }
    signature += optional.map { "\(SwiftNames.escaped($0.name)): \($0.type.code)? = nil" }
    if let body, !body.required { signature.append("body: \(body.type.code)? = nil") }

    var statements = pathStatements
    var arguments = ["json: .\(method)", "path: \"\(pathLiteral)\""]
    let queryParameters = parameters.filter { $0.location == .query && !Self.isRawQuery($0) }
    if !queryParameters.isEmpty {
      statements.append("var queryItems: [URLQueryItem] = []")
      for parameter in queryParameters { statements += Self.queryStatements(parameter) }
      arguments.append("query: queryItems")
    }
    // Unexploded `form` arrays and objects, written as they go in the query, then the path's.
    let rawQueryParameters = parameters.filter { $0.location == .query && Self.isRawQuery($0) }
    if !rawQueryParameters.isEmpty {
      usesSegmentEncoder = true
      statements.append("var rawQuery: [String] = []")
      for parameter in rawQueryParameters { statements += Self.rawQueryStatements(parameter) }
      // An empty query leaves no `?`: `URLPath` adds the query only when it has text.
      let mark = pathLiteral.contains("?") ? "&" : "?"
      arguments[1] = "path: \"\(pathLiteral)\(mark)\\(raw: rawQuery.joined(separator: \"&\"))\""
    }
    let headerParameters = parameters.filter { $0.location == .header }
    let cookieParameters = parameters.filter { $0.location == .cookie }
    // Text in a header's array or object, and in a cookie, is percent-encoded value by value;
    // a scalar header is sent as it is.
    let fieldEncoder = { (parameter: ParameterDecl) in
      Self.encodesEachValue(parameter) ? Self.fieldEncoder : nil
    }
    let usesFieldEncoder = (headerParameters + cookieParameters).contains {
      fieldEncoder($0) != nil
    }
    if !headerParameters.isEmpty || !cookieParameters.isEmpty || jsonContentType != nil {
      statements.append("var headerFields: [String: String] = [:]")
      if let jsonContentType {
        // Set where the body is sent; a Content-Type field wins over the JSON payload's own.
        formLines.append(
          "headerFields[\"Content-Type\"] = \"\(Self.escapedLiteral(jsonContentType))\"")
      }
      for parameter in headerParameters {
        guard let fields = parameter.fields else {
          statements += Self.headerStatements(parameter, encoder: fieldEncoder(parameter))
          continue
        }
        statements += Self.objectHeaderStatements(
          parameter, fields: fields, parts: locals.claim(parameter.name + "Parts"),
          encoder: fieldEncoder(parameter))
      }
      // A cookie's array or object is first made its text, then sent as a string.
      var cookies: [(parameter: ParameterDecl, encoder: String?)] = []
      for parameter in cookieParameters {
        guard !parameter.type.isScalar else {
          cookies.append((parameter, fieldEncoder(parameter)))
          continue
        }
        let (lines, text) = Self.cookieText(
          parameter, text: locals.claim(parameter.name + "Text"),
          parts: locals.claim(parameter.name + "Parts"), encoder: fieldEncoder(parameter))
        statements += lines
        cookies.append((text, nil))
      }
      statements += Self.cookieStatements(cookies)
      arguments.append("headers: headerFields")
    }
    // A body that is not JSON, or bytes for a response, take the payload and parser forms.
    let bodyArgument: String
    let tail: [String]
    if payload.hasPrefix("json("), parser == nil {
      bodyArgument = "body: \(jsonBody)"
      tail = expecting.map { ["expecting: \($0)"] } ?? []
    } else {
      arguments[0] = ".\(method)"
      // A multipart body's payload is a local of its statements.
      bodyArgument = "payload: " + (payload == "multipartPayload" ? "" : ".") + payload
      tail = ["parser: " + (parser ?? ".json(\(expecting.map { "expecting: \($0)" } ?? ""))")]
    }
    var bodyLines: [String] = []
    if let body, !body.required {
      bodyLines += statements
      bodyLines.append("guard let body else {")
      bodyLines += Self.call(arguments + tail, indent: 6, returns: true, decodedAs: decodedAs)
        .map { "  " + $0 }
      bodyLines.append("}")
      bodyLines += formLines
      bodyLines += Self.call(
        arguments + [bodyArgument] + tail, indent: 4, returns: true, decodedAs: decodedAs)
    } else {
      let all = arguments + (body != nil ? [bodyArgument] : []) + tail
      bodyLines += statements + formLines
      bodyLines += Self.call(
        all, indent: 4, returns: !(statements + formLines).isEmpty, decodedAs: decodedAs)
    }

    namespace.scope = scope ?? namespace.scope
    namespace.usesSegmentEncoder = namespace.usesSegmentEncoder || usesSegmentEncoder
    namespace.usesFieldEncoder = namespace.usesFieldEncoder || usesFieldEncoder
    // The support files the operation's own types need: its parameters', and its whole body's,
    // answer's and error bodies' (a model's are the model file's). Base64 parameters are text.
    let types =
      parameters.map(\.type) + [body?.type, answer].compactMap { $0 } + errors.compactMap(\.type)
    namespace.usesDateTime = namespace.usesDateTime || types.contains { $0.contains(.dateTime) }
    namespace.usesBase64 = namespace.usesBase64 || types.contains { $0.contains(.base64) }
    namespace.usesCalendarDay =
      namespace.usesCalendarDay || types.contains { $0.contains(.calendarDay) }
    let name = namespace.functions.claim(baseName)
    let access = options.accessLevel == .public ? "public " : ""
    var lines = Self.operationDoc(
      operation, method: method, path: path, parameters: ordered + optional, body: body,
      errors: errorEnum.map { Self.errorBodyDoc(errors, enumName: $0) } ?? [])
    if let mediaNote, let at = lines.firstIndex(of: "/// `\(method.uppercased()) \(path)`") {
      lines.insert(contentsOf: ["///"] + Self.docLines(mediaNote, indent: 2), at: at + 1)
    }
    let head = "\(access)static func \(SwiftNames.escaped(name))("
    let end = ") -> Endpoint<\(resultType)> {"
    let oneLine = head + signature.joined(separator: ", ") + end
    if oneLine.count + 2 <= 100 {
      lines.append(oneLine)
    } else {
      lines.append(head)
      for (position, parameter) in signature.enumerated() {
        lines.append("  " + parameter + (position < signature.count - 1 ? "," : ""))
      }
      lines.append(end)
    }
    lines += bodyLines.map { "  " + $0 }
    lines.append("}")
    let paginator = paginatorLines(
      operation, function: name,
      response: PagedResponse(
        type: resultRef, node: successNode.node, pointer: successNode.pointer),
      parameters: parameters, scope: scope, namespace: &namespace)
    if !paginator.isEmpty { lines += [""] + paginator }
    if let errorEnum {
      lines.append("")
      lines += errorBodyLines(errors, enumName: errorEnum, function: name)
    }
    return (lines, name)
  }

  private mutating func parameters(
    of operation: JSONNode, pathItem: JSONNode, pointer: String, locals: inout NameScope,
    typePrefix: String, scope: inout NestedScope?
  ) throws(Unsupported) -> [ParameterDecl] {
    // Path-level parameters first; an operation's own replaces one of the same name and place.
    var described: [(node: JSONNode, pointer: String)] = []
    let pathLevelPointer = JSONPointer.appending(
      "parameters", to: String(pointer[..<pointer.lastIndex(of: "/")!]))
    let own = JSONPointer.appending("parameters", to: pointer)
    for (list, listPointer) in [
      (pathItem["parameters"], pathLevelPointer), (operation["parameters"], own),
    ] {
      for (position, node) in (list?.array ?? []).enumerated() {
        var entry = (node: node, pointer: JSONPointer.appending(String(position), to: listPointer))
        if let reference = node["$ref"]?.string {
          guard let target = document.resolve(reference) else {
            throw Unsupported(
              pointer: JSONPointer.appending("$ref", to: entry.pointer),
              message: "a reference to another document (\(reference)) is not read yet")
          }
          entry = target
        }
        described.removeAll {
          $0.node["name"] == entry.node["name"] && $0.node["in"] == entry.node["in"]
        }
        described.append(entry)
      }
    }
    var result: [ParameterDecl] = []
    for (node, parameterPointer) in described {
      do {
        if let parameter = try parameter(
          node, at: parameterPointer, locals: &locals, typePrefix: typePrefix, scope: &scope)
        {
          result.append(parameter)
        }
      } catch {
        let required = node["required"]?.bool == true || node["in"]?.string == "path"
        if required { throw error }
        warn(error, "the optional parameter is left out")
      }
    }
    return result
  }

  private mutating func parameter(
    _ node: JSONNode, at pointer: String, locals: inout NameScope, typePrefix: String,
    scope: inout NestedScope?
  ) throws(Unsupported) -> ParameterDecl? {
    let name = node["name"]?.string ?? ""
    let place = node["in"]?.string ?? ""
    // OpenAPI: header parameters of these names are ignored; the SDK sets them.
    if place == "header", ["accept", "content-type", "authorization"].contains(name.lowercased()) {
      return nil
    }
    guard let location = ParameterDecl.Location(rawValue: place) else {
      throw Unsupported(
        pointer: JSONPointer.appending("in", to: pointer),
        message: "\(place) parameters are not supported yet")
    }
    guard let schema = node["schema"] else {
      throw Unsupported(
        pointer: pointer, message: "a parameter described by content is not supported yet")
    }
    let defaultStyle = location == .query || location == .cookie ? "form" : "simple"
    let style = node["style"]?.string ?? defaultStyle
    let styles: Set<String> =
      switch location {
      case .query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"]
      case .path: ["simple", "label", "matrix"]
      default: [defaultStyle]
      }
    guard styles.contains(style) else {
      throw Unsupported(
        pointer: JSONPointer.appending("style", to: pointer),
        message: "the \(style) style is not supported yet")
    }
    // A string enum declared in place becomes a type nested in the namespace, named after the
    // operation and the parameter; it is kept only if the parameter is.
    var candidate = scope
    // A date-time, or an array of them, is a `Date`, written as RFC 3339 text.
    let resolved = try typeRef(
      schema, at: JSONPointer.appending("schema", to: pointer),
      suggested: typePrefix + SwiftNames.typeName(name), scope: &candidate)
    // Base64 text (`format: byte`) stays a `String`.
    let type = dated(resolved.type, schema, bytes: false)
    // What each style can express: scalars in `form`, `simple`, `label` and `matrix`; arrays
    // in the query, the path and headers; objects of scalars in the query's `form` and
    // `deepObject`, the path and headers.
    // A cookie's array or object only unexploded: `name=a,b`.
    let explode = style == "deepObject" || (node["explode"]?.bool ?? (style == "form"))
    let cookieFits = location != .cookie || !explode
    var fits = type.isScalar && ["form", "simple", "label", "matrix"].contains(style)
    var fields: [PropertyDecl]?
    switch type {
    case .array(let element):
      fits = element.isScalar && style != "deepObject" && cookieFits
    case .named(let typeName, false)
    where location == .path || location == .header || (location == .cookie && !explode)
      || (location == .query && style != "spaceDelimited" && style != "pipeDelimited"):
      fields = objectProperties(typeName, candidate)
      fits =
        fields?.allSatisfy(\.type.isScalar) == true
        && !keepsAdditionalProperties(typeName, candidate)
    default:
      break
    }
    guard fits else {
      var inStyle = style == defaultStyle ? "" : " in the \(style) style"
      if location == .cookie && explode && !type.isScalar {
        inStyle += " exploded (explode: false sends name=a,b)"
      }
      throw Unsupported(
        pointer: JSONPointer.appending("schema", to: pointer),
        message: "a \(place) parameter of type \(type.code)\(inStyle) is not supported yet")
    }
    scope = candidate
    return ParameterDecl(
      wireName: name, location: location, name: locals.claim(SwiftNames.memberName(name)),
      type: type,
      required: location == .path || node["required"]?.bool == true,
      explode: explode,
      style: style, fields: fields,
      doc: node["description"]?.string)
  }

  func responseNode(
    _ node: JSONNode, at pointer: String
  ) throws(Unsupported) -> (node: JSONNode, pointer: String) {
    guard let reference = node["$ref"]?.string else { return (node, pointer) }
    guard let target = document.resolve(reference) else {
      throw Unsupported(
        pointer: JSONPointer.appending("$ref", to: pointer),
        message: "a reference to another document (\(reference)) is not read yet")
    }
    return target
  }

  /// The media type of a body sent or read as bytes, when it has no JSON one: the first whose
  /// schema is absent, empty or `format: binary`, or a `*/*` of a string, which is the body's
  /// text in any media type, not a JSON string (`*/*` is sent as `application/octet-stream`).
  static func binaryMediaType(in body: JSONNode) -> String? {
    let content = body["content"]?.object ?? [:]
    guard !hasJSON(content) else { return nil }
    for key in content.keys.sorted() {
      let type = mediaType(key)
      if type.hasPrefix("multipart/") || type == "application/x-www-form-urlencoded" { continue }
      let schema = content[key]?["schema"]
      let anyText = type == "*/*" && schema?["type"]?.string == "string" && schema?["enum"] == nil
      guard
        schema == nil || schema == .object([:]) || schema?["format"]?.string == "binary" || anyText
      else { continue }
      return type == "*/*" ? "application/octet-stream" : key
    }
    return nil
  }

  /// A content key's media type, lowercased, without parameters.
  static func mediaType(_ key: String) -> String {
    key.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }?
      .lowercased() ?? ""
  }

  /// Whether a body's content has a JSON media type (`application/json`, `application/…+json`).
  static func hasJSON(_ content: [String: JSONNode]) -> Bool {
    content.keys.map(mediaType).contains { $0 == "application/json" || $0.hasSuffix("+json") }
  }

  /// The content key of a body's JSON media type: `application/json`, else the first
  /// `application/…+json` by name, else a lone `*/*`.
  static func jsonMediaKey(in content: [String: JSONNode]) -> String? {
    let keys = content.keys.sorted()
    return keys.first { mediaType($0) == "application/json" }
      ?? keys.first { mediaType($0).hasSuffix("+json") }
      ?? keys.first { mediaType($0) == "*/*" && content.count == 1 }
  }

  /// The `Content-Type` a JSON request body is sent with when it is not `application/json`:
  /// the body's JSON media type, such as `application/merge-patch+json`.
  static func jsonContentType(of body: JSONNode) -> String? {
    guard let key = jsonMediaKey(in: body["content"]?.object ?? [:]) else { return nil }
    let type = mediaType(key)
    return type == "application/json" || type == "*/*" ? nil : key
  }

  /// A sentence for the factory's doc comment when a JSON body lists several JSON media types:
  /// the one it is sent as, and how to send another.
  static func jsonMediaNote(of body: JSONNode) -> String? {
    let content = body["content"]?.object ?? [:]
    guard let chosen = jsonMediaKey(in: content) else { return nil }
    let others = content.keys.sorted().filter { key in
      key != chosen && (mediaType(key) == "application/json" || mediaType(key).hasSuffix("+json"))
    }
    guard !others.isEmpty else { return nil }
    return "The body is sent as `\(chosen)`; to send it as "
      + others.map { "`\($0)`" }.joined(separator: " or ")
      + ", which the API also reads, set the endpoint's `Content-Type` header field."
  }

  /// The schema of a body's JSON media type (`application/json`, `application/…+json`).
  func jsonSchema(
    in body: JSONNode, at pointer: String, what: String
  ) throws(Unsupported) -> (schema: JSONNode, pointer: String) {
    let content = body["content"]?.object ?? [:]
    let contentPointer = JSONPointer.appending("content", to: pointer)
    guard let json = Self.jsonMediaKey(in: content) else {
      throw Unsupported(
        pointer: contentPointer,
        message: "\(what) in \(content.keys.sorted().joined(separator: ", ")) is not supported "
          + "yet (only JSON, form\(what == "a request body" ? ", multipart" : "") and binary are)")
    }
    let mediaPointer = JSONPointer.appending(json, to: contentPointer)
    guard let schema = content[json]!["schema"] else { return (.object([:]), mediaPointer) }
    return (schema, JSONPointer.appending("schema", to: mediaPointer))
  }
}
