/// `multipart/form-data` request bodies: an object sent as one part per property.
extension Generation {
  static let multipartMediaType = "multipart/form-data"

  /// A multipart body's schema and `encoding` object, when the body has no JSON or form media
  /// type.
  struct MultipartBody {
    var schema: JSONNode
    var pointer: String
    /// Property name → its `encoding` entry.
    var encoding: [String: JSONNode]

    /// The `binary` strings the schema declares in place: its properties, and their items.
    var binaryPointers: Set<String> {
      let properties = JSONPointer.appending("properties", to: pointer)
      var pointers = Set<String>()
      for key in schema["properties"]?.object?.keys ?? [:].keys {
        let property = JSONPointer.appending(key, to: properties)
        pointers.insert(property)
        pointers.insert(JSONPointer.appending("items", to: property))
      }
      return pointers
    }

    /// A file part's media type: the first of the `encoding` entry's, unless it has a
    /// wildcard.
    func contentType(of key: String) -> String {
      let listed = encoding[key]?["contentType"]?.string?.split(separator: ",").first
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard let listed, !listed.isEmpty, !listed.contains("*") else {
        return "application/octet-stream"
      }
      return listed
    }
  }

  /// The multipart body of a request body's content, when it has no JSON or form media type.
  static func multipartBody(in body: JSONNode, at pointer: String) -> MultipartBody? {
    let content = body["content"]?.object ?? [:]
    guard !hasJSON(content), !content.keys.contains(where: { mediaType($0) == formMediaType }),
      let key = content.keys.sorted().first(where: { mediaType($0) == multipartMediaType })
    else { return nil }
    let mediaPointer = JSONPointer.appending(
      key, to: JSONPointer.appending("content", to: pointer))
    let encoding = content[key]!["encoding"]?.object ?? [:]
    guard let schema = content[key]!["schema"] else {
      return MultipartBody(schema: .object([:]), pointer: mediaPointer, encoding: encoding)
    }
    return MultipartBody(
      schema: schema, pointer: JSONPointer.appending("schema", to: mediaPointer),
      encoding: encoding)
  }

  /// The Swift type of a multipart body: its `format: binary` properties, and items, are
  /// `Data`.
  mutating func multipartType(
    _ body: MultipartBody, suggested: String, scope: inout NestedScope?
  ) throws(Unsupported) -> TypeRef {
    binaryPointers = body.binaryPointers
    defer { binaryPointers = [] }
    return try typeRef(body.schema, at: body.pointer, suggested: suggested, scope: &scope).type
  }

  /// Statements that make the payload `multipartPayload`: text parts for scalars and date-times
  /// (one for each item of an array of them), file parts for bytes (one for each item of an
  /// array of them), a JSON part for anything else; a `nil` property has no part.
  func multipartStatements(
    _ type: TypeRef, _ body: MultipartBody, scope: NestedScope?
  ) throws(Unsupported) -> [String] {
    let properties = try bodyProperties(type, at: body.pointer, scope: scope, kind: "multipart")
    var parts: [String] = []
    var usesJSON = false
    for property in properties {
      let wire = "\"\(Self.escapedLiteral(property.key))\""
      func part(_ value: String, _ type: TypeRef) -> String? {
        switch type {
        case .data:
          let contentType = body.contentType(of: property.key)
          let typeArgument =
            contentType == "application/octet-stream"
            ? "" : "contentType: \"\(Self.escapedLiteral(contentType))\", "
          return ".file(name: \(wire), filename: \(wire), \(typeArgument)data: \(value))"
        case _ where type.isScalar:
          return ".text(name: \(wire), value: \(Self.value(value, type, text: true)))"
        case .dateTime:
          return ".text(name: \(wire), value: RFC3339(wrappedValue: \(value)).text)"
        default: return nil
        }
      }
      let member = "body." + SwiftNames.escaped(property.name)
      if case .array(let element) = property.type, let each = part("item", element) {
        let list = property.optional ? "\(member) ?? []" : member
        parts += ["for item in \(list) {", "  multipartParts.append(\(each))", "}"]
        continue
      }
      let value = property.optional ? "value" : member
      var append: String
      if let single = part(value, property.type) {
        append = "multipartParts.append(\(single))"
      } else {
        usesJSON = true
        // Date-times in the value as the wrapper writes them, not as the encoder's strategy.
        let encoded = property.type.codingWrapper.map { "\($0)(wrappedValue: \(value))" } ?? value
        append =
          "multipartParts.append(.init(name: \(wire), contentType: \"application/json\", "
          + "data: try jsonEncoder.encode(\(encoded))))"
      }
      parts += property.optional ? ["if let value = \(member) {", "  " + append, "}"] : [append]
    }
    let start = ["var multipartParts: [MultipartPart] = []"]
    guard usesJSON else {
      return start + parts + ["let multipartPayload = RequestPayload.multipart(multipartParts)"]
    }
    // A JSON part that cannot be encoded (a `Double.nan`) fails the request when it is sent.
    let encoder = [
      "let jsonEncoder = JSONEncoder()", "jsonEncoder.outputFormatting = .sortedKeys",
    ]
    return ["let multipartPayload: RequestPayload", "do {"]
      + (encoder + start + parts + ["multipartPayload = .multipart(multipartParts)"]).map {
        "  " + $0
      }
      + ["} catch {", "  multipartPayload = .failure(error)", "}"]
  }
}
