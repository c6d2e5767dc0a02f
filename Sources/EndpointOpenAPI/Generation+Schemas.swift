/// Schemas to Swift types.
extension Generation {
  /// An object's properties, `allOf` parts merged.
  struct MergedObject {
    var properties: [String: (schema: JSONNode, pointer: String)] = [:]
    var required: Set<String> = []
    var additional: (schema: JSONNode, pointer: String)?
  }

  static func isNullable(_ schema: JSONNode) -> Bool {
    if schema["nullable"]?.bool == true { return true }
    if let types = schema["type"]?.array, types.contains(.string("null")) { return true }
    return composition(of: schema)?.nullable ?? false
  }

  static func types(of schema: JSONNode) -> [String] {
    if let type = schema["type"]?.string { return [type] }
    return (schema["type"]?.array ?? []).compactMap(\.string).filter { $0 != "null" }
  }

  static func description(of schema: JSONNode) -> String? {
    schema["description"]?.string ?? schema["title"]?.string
  }

  static func isObjectLike(_ schema: JSONNode) -> Bool {
    if schema["properties"] != nil { return true }
    if let parts = schema["allOf"]?.array, parts.count > 1 { return true }
    return false
  }

  static func stringEnumValues(_ schema: JSONNode) -> [String]? {
    guard let values = schema["enum"]?.array else { return nil }
    let types = types(of: schema)
    guard types.isEmpty || types == ["string"] else { return nil }
    let strings = values.compactMap(\.string)
    guard strings.count == values.filter({ $0 != .null }).count, !strings.isEmpty else {
      return nil
    }
    return strings
  }

  mutating func topLevelModel(
    name: String, schema: JSONNode, pointer: String
  ) throws(Unsupported) -> ModelDecl {
    let schema = Self.expandingIntOrString(schema)
    let doc = Self.description(of: schema)
    if Self.composition(of: schema) != nil, Self.isChoice(schema) || Self.isObjectLike(schema) {
      return try choiceModel(name: name, schema: schema, pointer: pointer, doc: doc)
    }
    if Self.isObjectLike(schema) {
      _ = try merge(schema, at: pointer, visiting: [])
      return ModelDecl(name: name, doc: doc, shape: .object([]))
    }
    if let values = Self.stringEnumValues(schema) {
      return ModelDecl(name: name, doc: doc, shape: .stringEnum(values))
    }
    var noScope: NestedScope? = nil
    let resolved = try typeRef(schema, at: pointer, suggested: name, scope: &noScope)
    return ModelDecl(name: name, doc: doc, shape: .alias(dated(resolved.type, schema)))
  }

  mutating func objectModel(
    name: String, schema: JSONNode, pointer: String, doc: String?
  ) throws(Unsupported) -> ModelDecl {
    let merged = try merge(schema, at: pointer, visiting: [])
    var scope: NestedScope? = NestedScope(
      names: NameScope(
        reserved: ["CodingKeys", "AdditionalKey", name], outer: topNames.lowercasedNames))
    var members = NameScope()
    var properties: [PropertyDecl] = []
    for key in merged.properties.keys.sorted() {
      let (propertySchema, propertyPointer) = merged.properties[key]!
      do {
        let resolved = try typeRef(
          propertySchema, at: propertyPointer, suggested: SwiftNames.typeName(key),
          scope: &scope)
        properties.append(
          PropertyDecl(
            key: key,
            name: members.claim(SwiftNames.memberName(key)),
            type: dated(resolved.type, propertySchema),
            required: merged.required.contains(key),
            nullable: resolved.nullable,
            doc: Self.description(of: propertySchema),
            pointer: propertyPointer))
      } catch {
        warn(error, "the property is left out")
      }
    }
    var kept: TypeRef? = nil
    if let (additional, additionalPointer) = merged.additional, additional.object != nil,
      additional != .object([:])
    {
      // Kept in `additionalProperties`, unless a property has that name or the values are
      // date-times (which the hand-written coding does not code as RFC 3339 yet).
      do throws(Unsupported) {
        let resolved = try typeRef(
          additional, at: additionalPointer, suggested: "AdditionalValue", scope: &scope)
        let type = dated(resolved.type, additional)
        if let wrapper = type.codingWrapper ?? (members.isTaken("additionalProperties") ? "" : nil)
        {
          throw Unsupported(
            pointer: additionalPointer,
            message: !wrapper.isEmpty
              ? "additionalProperties of \(wrapper == "Base64" ? "base64 bytes" : "date-times") "
                + "beside properties is not kept yet"
              : "additionalProperties beside a property named additionalProperties is not kept")
        }
        kept = resolved.nullable ? .json : type
      } catch {
        warn(error, "extra properties are ignored when decoding")
      }
    }
    return ModelDecl(
      name: name, doc: doc, shape: .object(properties), nested: scope?.decls ?? [],
      additional: kept)
  }

  /// The properties of an object schema with its `allOf` parts, references followed.
  func merge(
    _ schema: JSONNode, at pointer: String, visiting: Set<String>
  ) throws(Unsupported) -> MergedObject {
    if let reference = schema["$ref"]?.string {
      guard let (target, targetPointer) = document.resolve(reference) else {
        throw Unsupported(
          pointer: JSONPointer.appending("$ref", to: pointer),
          message: "a reference to another document (\(reference)) is not read yet")
      }
      guard !visiting.contains(targetPointer) else {
        throw Unsupported(pointer: pointer, message: "allOf includes itself")
      }
      return try merge(target, at: targetPointer, visiting: visiting.union([targetPointer]))
    }
    for composition in ["oneOf", "anyOf"] where schema[composition] != nil {
      throw Unsupported(
        pointer: JSONPointer.appending(composition, to: pointer),
        message: "\(composition) is not supported yet")
    }
    let types = Self.types(of: schema)
    guard types.isEmpty || types == ["object"] else {
      throw Unsupported(
        pointer: pointer,
        message: "allOf of a schema of type \(types.joined(separator: ", ")) is not supported")
    }
    var merged = MergedObject()
    for (position, part) in (schema["allOf"]?.array ?? []).enumerated() {
      let partPointer = JSONPointer.appending(
        String(position), to: JSONPointer.appending("allOf", to: pointer))
      let other = try merge(part, at: partPointer, visiting: visiting)
      merged.properties.merge(other.properties) { _, new in new }
      merged.required.formUnion(other.required)
      merged.additional = other.additional ?? merged.additional
    }
    let propertiesPointer = JSONPointer.appending("properties", to: pointer)
    for (key, property) in schema["properties"]?.object ?? [:] {
      merged.properties[key] = (property, JSONPointer.appending(key, to: propertiesPointer))
    }
    merged.required.formUnion((schema["required"]?.array ?? []).compactMap(\.string))
    if let additional = schema["additionalProperties"] {
      merged.additional = (additional, JSONPointer.appending("additionalProperties", to: pointer))
    }
    return merged
  }

  /// The Swift type of a schema where it is used. Inline objects and string enums become types
  /// nested in `scope`; with no scope, an inline object is not supported and an inline enum is
  /// a `String`.
  mutating func typeRef(
    _ schema: JSONNode, at pointer: String, suggested: String, scope: inout NestedScope?,
    depth: Int = 0
  ) throws(Unsupported) -> Resolved {
    guard depth < 16 else {
      throw Unsupported(pointer: pointer, message: "references nest too deeply")
    }
    let schema = Self.expandingIntOrString(schema)
    let nullable = Self.isNullable(schema)
    if let reference = schema["$ref"]?.string {
      return try referencedType(
        reference, at: pointer, nullable: nullable, scope: &scope,
        suggested: suggested, depth: depth)
    }
    if let parts = schema["allOf"]?.array, parts.count == 1, !Self.isObjectLike(schema) {
      var resolved = try typeRef(
        parts[0], at: JSONPointer.appending("0", to: JSONPointer.appending("allOf", to: pointer)),
        suggested: suggested, scope: &scope, depth: depth + 1)
      resolved.nullable = resolved.nullable || nullable
      return resolved
    }
    if let (keyword, variants, hasNull) = Self.composition(of: schema) {
      guard variants.count == 1, !Self.isObjectLike(schema) else {
        let type = try nestedChoice(schema, at: pointer, suggested: suggested, scope: &scope)
        return Resolved(type: type, nullable: nullable || hasNull)
      }
      // `oneOf: [X, {type: null}]` is how 3.1 documents write a nullable X.
      var resolved = try typeRef(
        variants[0].schema,
        at: JSONPointer.appending(
          String(variants[0].position), to: JSONPointer.appending(keyword, to: pointer)),
        suggested: suggested, scope: &scope, depth: depth + 1)
      resolved.nullable = resolved.nullable || nullable || hasNull
      return resolved
    }
    if Self.isObjectLike(schema) {
      return Resolved(
        type: try nestedObject(schema, at: pointer, suggested: suggested, scope: &scope),
        nullable: nullable)
    }
    let types = Self.types(of: schema)
    guard types.count <= 1 else {
      throw Unsupported(
        pointer: JSONPointer.appending("type", to: pointer),
        message: "a value of several types (\(types.joined(separator: ", "))) is not supported yet"
      )
    }
    let type: TypeRef
    switch types.first {
    case "string":
      if Self.stringEnumValues(schema) != nil {
        type = nestedEnum(schema, suggested: suggested, scope: &scope)
      } else if schema["format"]?.string == "binary", binaryPointers.contains(pointer) {
        type = .data
      } else if schema["format"]?.string == "binary" {
        throw Unsupported(
          pointer: JSONPointer.appending("format", to: pointer),
          message: "binary data is not supported yet")
      } else {
        type = .string
      }
    case "integer": type = .int
    case "number": type = .double
    case "boolean": type = .bool
    case "array":
      guard let items = schema["items"] else {
        type = .array(.json)
        break
      }
      let element = try typeRef(
        items, at: JSONPointer.appending("items", to: pointer), suggested: suggested + "Item",
        scope: &scope, depth: depth + 1)
      type = .array(element.type)
    case "object", nil:
      if types.isEmpty, schema["items"] != nil {
        var arraySchema = schema.object ?? [:]
        arraySchema["type"] = .string("array")
        return try typeRef(
          .object(arraySchema), at: pointer, suggested: suggested, scope: &scope,
          depth: depth + 1)
      }
      if types.isEmpty, Self.stringEnumValues(schema) != nil {
        type = nestedEnum(schema, suggested: suggested, scope: &scope)
        break
      }
      if types.isEmpty && schema["additionalProperties"] == nil {
        type = .json
        break
      }
      if let additional = schema["additionalProperties"], additional.object != nil,
        additional != .object([:])
      {
        let value = try typeRef(
          additional, at: JSONPointer.appending("additionalProperties", to: pointer),
          suggested: suggested + "Value", scope: &scope, depth: depth + 1)
        type = .dictionary(value.type)
      } else {
        type = .dictionary(.json)
      }
    case let other?:
      throw Unsupported(
        pointer: JSONPointer.appending("type", to: pointer),
        message: "the type \"\(other)\" is not supported")
    }
    return Resolved(type: type, nullable: nullable)
  }

  private mutating func referencedType(
    _ reference: String, at pointer: String, nullable: Bool, scope: inout NestedScope?,
    suggested: String, depth: Int
  ) throws(Unsupported) -> Resolved {
    let referencePointer = JSONPointer.appending("$ref", to: pointer)
    guard let tokens = JSONPointer.tokens(ofLocalReference: reference) else {
      throw Unsupported(
        pointer: referencePointer,
        message: "a reference to another document (\(reference)) is not read yet")
    }
    if tokens.count == 3, tokens[0] == "components", tokens[1] == "schemas" {
      switch ensureModel(tokens[2]) {
      case .skipped:
        throw Unsupported(
          pointer: referencePointer, message: "\(reference) is a schema that is skipped")
      case .inProgress:
        return Resolved(
          type: .named(modelNames[tokens[2]]!, isStringEnum: false), nullable: nullable)
      case .done(let decl, let modelNullable):
        var isStringEnum = false
        if case .stringEnum = decl.shape { isStringEnum = true }
        return Resolved(
          type: .named(decl.name, isStringEnum: isStringEnum), nullable: nullable || modelNullable)
      }
    }
    guard let (target, targetPointer) = document.resolve(reference) else {
      throw Unsupported(pointer: referencePointer, message: "\(reference) does not resolve")
    }
    var resolved = try typeRef(
      target, at: targetPointer, suggested: suggested, scope: &scope, depth: depth + 1)
    resolved.nullable = resolved.nullable || nullable
    return resolved
  }

  /// A type declared in place, nested in `scope` under a name claimed there; `what` it is
  /// names it in the report when there is no scope.
  mutating func nestedType(
    _ schema: JSONNode, at pointer: String, suggested: String, scope: inout NestedScope?,
    what: String,
    make: (inout Generation, _ name: String, _ doc: String?) throws(Unsupported) -> ModelDecl
  ) throws(Unsupported) -> TypeRef {
    guard var current = scope else {
      throw Unsupported(
        pointer: pointer,
        message: "\(what) declared in place here is not supported yet; "
          + "declare it in components/schemas")
    }
    let name = current.names.claim(suggested)
    scope = current
    let decl = try make(&self, name, Self.description(of: schema))
    current = scope!
    current.decls.append(decl)
    scope = current
    return .named(name, isStringEnum: false)
  }

  private mutating func nestedObject(
    _ schema: JSONNode, at pointer: String, suggested: String, scope: inout NestedScope?
  ) throws(Unsupported) -> TypeRef {
    try nestedType(
      schema, at: pointer, suggested: suggested, scope: &scope, what: "an object"
    ) { generation, name, doc throws(Unsupported) in
      try generation.objectModel(name: name, schema: schema, pointer: pointer, doc: doc)
    }
  }

  private func nestedEnum(
    _ schema: JSONNode, suggested: String, scope: inout NestedScope?
  ) -> TypeRef {
    guard var current = scope, let values = Self.stringEnumValues(schema) else { return .string }
    let name = current.names.claim(suggested)
    current.decls.append(
      ModelDecl(name: name, doc: Self.description(of: schema), shape: .stringEnum(values)))
    scope = current
    return .named(name, isStringEnum: true)
  }
}
