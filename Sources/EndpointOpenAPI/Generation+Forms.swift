/// `application/x-www-form-urlencoded` request bodies: an object of scalar properties (or
/// arrays of them) sent as `name=value` pairs.
extension Generation {
  static let formMediaType = "application/x-www-form-urlencoded"

  /// The schema of a body's form media type, when it has no JSON one.
  static func formSchema(
    in body: JSONNode, at pointer: String
  ) -> (schema: JSONNode, pointer: String)? {
    let content = body["content"]?.object ?? [:]
    guard !hasJSON(content),
      let key = content.keys.sorted().first(where: { mediaType($0) == formMediaType })
    else { return nil }
    let mediaPointer = JSONPointer.appending(
      key, to: JSONPointer.appending("content", to: pointer))
    guard let schema = content[key]!["schema"] else { return (.object([:]), mediaPointer) }
    return (schema, JSONPointer.appending("schema", to: mediaPointer))
  }

  /// Statements that collect a form body's fields in `fields`, each array item its own
  /// field (the `form` style, `explode` true) and each `nil` left out.
  func formStatements(
    _ type: TypeRef, at pointer: String, scope: NestedScope?
  ) throws(Unsupported) -> [String] {
    let properties = try bodyProperties(type, at: pointer, scope: scope, kind: "form")
    var lines = ["var formFields: [(String, String)] = []"]
    for property in properties {
      let member = "body." + SwiftNames.escaped(property.name)
      let wire = "\"\(Self.escapedLiteral(property.key))\""
      if case .array(let element) = property.type, element.isScalar {
        let list = property.optional ? "\(member) ?? []" : member
        lines += [
          "for item in \(list) {",
          "  formFields.append((\(wire), \(Self.value("item", element, text: true))))",
          "}",
        ]
        continue
      }
      guard property.type.isScalar else {
        throw Unsupported(
          pointer: property.pointer,
          message: "a form field of type \(property.type.code) is not supported yet")
      }
      if property.optional {
        lines += [
          "if let value = \(member) {",
          "  formFields.append((\(wire), \(Self.value("value", property.type, text: true))))",
          "}",
        ]
      } else {
        lines.append(
          "formFields.append((\(wire), \(Self.value(member, property.type, text: true))))")
      }
    }
    return lines
  }

  /// The properties of a `kind` body (`form`, `multipart`), which must be a generated struct.
  func bodyProperties(
    _ type: TypeRef, at pointer: String, scope: NestedScope?, kind: String
  ) throws(Unsupported) -> [PropertyDecl] {
    guard case .named(let name, false) = type, let properties = objectProperties(name, scope)
    else {
      throw Unsupported(
        pointer: pointer, message: "a \(kind) body that is not an object is not supported yet")
    }
    if keepsAdditionalProperties(name, scope) {
      throw Unsupported(
        pointer: pointer,
        message: "a \(kind) body with additionalProperties beside properties is not supported yet")
    }
    return properties
  }

  /// The properties of a generated struct: a model, or a type nested in `scope`.
  func objectProperties(_ name: String, _ scope: NestedScope?) -> [PropertyDecl]? {
    guard case .object(let properties) = objectDecl(name, scope)?.shape else { return nil }
    return properties
  }

  /// Whether the generated struct `name` keeps the keys its schema does not list, which a
  /// form, multipart body or styled parameter would not send.
  func keepsAdditionalProperties(_ name: String, _ scope: NestedScope?) -> Bool {
    objectDecl(name, scope)?.additional != nil
  }

  private func objectDecl(_ name: String, _ scope: NestedScope?) -> ModelDecl? {
    let nested = scope?.decls.first { $0.name == name }
    let model = modelStates.values.lazy.compactMap { state -> ModelDecl? in
      if case .done(let decl, _) = state, decl.name == name { return decl }
      return nil
    }.first
    return nested ?? model
  }
}
