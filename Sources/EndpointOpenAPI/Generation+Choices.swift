/// `oneOf` and `anyOf` to Swift enums with one case per variant.
extension Generation {
  /// The composition keyword of a schema, its variants other than `{"type": "null"}` with
  /// their positions, and whether `null` was one of them.
  static func composition(
    of schema: JSONNode
  ) -> (keyword: String, variants: [(position: Int, schema: JSONNode)], nullable: Bool)? {
    for keyword in ["oneOf", "anyOf"] {
      guard let all = schema[keyword]?.array else { continue }
      let variants = all.enumerated().filter { $0.element["type"]?.string != "null" }
      return (keyword, variants.map { ($0.offset, $0.element) }, variants.count < all.count)
    }
    return nil
  }

  /// Kubernetes's int-or-string (`format: int-or-string`, or `x-kubernetes-int-or-string:
  /// true`), a value that is an integer or a string, as the `anyOf` of the two it means; its
  /// other keywords are kept. Other schemas are returned as they are.
  static func expandingIntOrString(_ schema: JSONNode) -> JSONNode {
    guard var object = schema.object, object["anyOf"] == nil, object["oneOf"] == nil,
      object["format"]?.string == "int-or-string"
        || object["x-kubernetes-int-or-string"]?.bool == true
    else { return schema }
    if isNullable(schema) { object["nullable"] = .bool(true) }
    for key in ["type", "format", "x-kubernetes-int-or-string"] { object[key] = nil }
    object["anyOf"] = .array([
      .object(["type": .string("integer")]), .object(["type": .string("string")]),
    ])
    return .object(object)
  }

  /// Whether a schema is a `oneOf` or `anyOf` of more than one non-null variant: an enum.
  static func isChoice(_ schema: JSONNode) -> Bool {
    guard let composition = composition(of: schema) else { return false }
    return composition.variants.count > 1
  }

  /// The enum of a `oneOf` or `anyOf`: a case per variant, the types declared in place nested
  /// in it.
  mutating func choiceModel(
    name: String, schema: JSONNode, pointer: String, doc: String?
  ) throws(Unsupported) -> ModelDecl {
    guard let (keyword, variants, _) = Self.composition(of: schema) else {
      throw Unsupported(pointer: pointer, message: "neither oneOf nor anyOf")
    }
    let keywordPointer = JSONPointer.appending(keyword, to: pointer)
    guard !variants.isEmpty else {
      throw Unsupported(pointer: keywordPointer, message: "\(keyword) lists no type but null")
    }
    if schema["oneOf"] != nil, schema["anyOf"] != nil {
      throw Unsupported(pointer: pointer, message: "oneOf beside anyOf is not supported yet")
    }
    if Self.isObjectLike(schema) {
      throw Unsupported(
        pointer: keywordPointer, message: "\(keyword) beside properties is not supported yet")
    }
    let discriminator = schema["discriminator"]?["propertyName"]?.string
    var scope: NestedScope? = NestedScope(
      names: NameScope(reserved: [name], outer: topNames.lowercasedNames))
    var caseNames = NameScope(reserved: discriminator == nil ? [] : ["unknown"])
    var cases: [ChoiceDecl.Case] = []
    var schemaKeys: [String?] = []
    for (position, variant) in variants {
      let variantPointer = JSONPointer.appending(String(position), to: keywordPointer)
      let title = variant["title"]?.string
      let resolved = try typeRef(
        variant, at: variantPointer,
        suggested: SwiftNames.typeName(title ?? "", fallback: "Option\(position + 1)"),
        scope: &scope)
      // A date-time or calendar-day variant is a `Date` or a `CalendarDay`, not any string.
      let type = dated(resolved.type, variant)
      if let same = cases.first(where: { $0.type == type }) {
        throw Unsupported(
          pointer: variantPointer,
          message: "two variants of the \(keyword) are both \(same.type.code), which cannot "
            + "be told apart")
      }
      // A string enum keeps any string, so beside `String` or another one every string would
      // match twice; a discriminator or anyOf's first match still tells them apart.
      if keyword == "oneOf", discriminator == nil, type.readsAnyString,
        let other = cases.first(where: \.type.readsAnyString)
      {
        throw Unsupported(
          pointer: variantPointer,
          message: "this variant and \(other.type.code) both read any string, so no string "
            + "matches exactly one")
      }
      // A date-time's, a day's or base64 text is a string too, so beside one that reads any
      // string it would match twice.
      if keyword == "oneOf", discriminator == nil,
        let other = cases.first(where: {
          $0.type.readsAnyString && type.readsSomeStrings
            || $0.type.readsSomeStrings && type.readsAnyString
        })
      {
        let text = type == .base64 || other.type == .base64 ? "base64 text" : "a date's text"
        throw Unsupported(
          pointer: variantPointer,
          message: "this variant and \(other.type.code) both read \(text), so it "
            + "matches no variant exactly once")
      }
      let caseName = title.map { SwiftNames.memberName($0) } ?? Self.caseName(type)
      cases.append(ChoiceDecl.Case(name: caseNames.claim(caseName), type: type))
      schemaKeys.append(
        variant["$ref"]?.string.flatMap(JSONPointer.tokens(ofLocalReference:)).flatMap {
          $0.count == 3 && $0[0] == "components" && $0[1] == "schemas" ? $0[2] : nil
        })
      if discriminator != nil, schemaKeys.last! == nil {
        throw Unsupported(
          pointer: variantPointer,
          message: "a discriminator's variants must each be a $ref to components/schemas")
      }
    }
    guard let discriminator else {
      return ModelDecl(
        name: name, doc: doc,
        shape: .choice(
          ChoiceDecl(
            keyword: keyword, rule: keyword == "oneOf" ? .exactlyOne : .firstMatch,
            cases: cases)),
        nested: scope?.decls ?? [])
    }
    // The mapping's values, then each variant's schema name unless the mapping gives that
    // value to another.
    let mappingPointer = JSONPointer.appending(
      "mapping", to: JSONPointer.appending("discriminator", to: pointer))
    let mapping = schema["discriminator"]?["mapping"]?.object ?? [:]
    for value in mapping.keys.sorted() {
      let target = mapping[value]?.string ?? ""
      let key =
        target.hasPrefix("#")
        ? JSONPointer.tokens(ofLocalReference: target).flatMap { $0.count == 3 ? $0[2] : nil }
        : target
      guard let index = schemaKeys.firstIndex(where: { $0 != nil && $0 == key }) else {
        warn(
          Unsupported(
            pointer: JSONPointer.appending(value, to: mappingPointer),
            message: "\(target) is not a variant of the \(keyword)"),
          "the value decodes as unknown")
        continue
      }
      cases[index].values.append(value)
    }
    for index in cases.indices where mapping[schemaKeys[index]!] == nil {
      cases[index].values.append(schemaKeys[index]!)
    }
    return ModelDecl(
      name: name, doc: doc,
      shape: .choice(
        ChoiceDecl(keyword: keyword, rule: .discriminator(property: discriminator), cases: cases)
      ),
      nested: scope?.decls ?? [])
  }

  /// An enum declared in place, nested in `scope`.
  mutating func nestedChoice(
    _ schema: JSONNode, at pointer: String, suggested: String, scope: inout NestedScope?
  ) throws(Unsupported) -> TypeRef {
    try nestedType(
      schema, at: pointer, suggested: suggested, scope: &scope, what: "a oneOf or anyOf"
    ) { generation, name, doc throws(Unsupported) in
      try generation.choiceModel(name: name, schema: schema, pointer: pointer, doc: doc)
    }
  }

  /// A case's name after its type, when the variant has no title.
  static func caseName(_ type: TypeRef) -> String {
    switch type {
    case .string: "string"
    case .int: "integer"
    case .double: "number"
    case .bool: "boolean"
    case .dateTime: "date"
    case .calendarDay: "day"
    case .data, .base64: "data"
    case .json: "json"
    case .named(let name, _): SwiftNames.memberName(name)
    case .array(let element): caseName(element) + "Array"
    case .dictionary(let value): caseName(value) + "Dictionary"
    }
  }
}

extension TypeRef {
  /// Whether this type is read from the text of a date: a date-time or a calendar day.
  var readsDateText: Bool { self == .dateTime || self == .calendarDay }

  /// Whether this type is read from some strings only: a date's text or base64 text.
  var readsSomeStrings: Bool { readsDateText || self == .base64 }

  /// Whether every JSON string decodes as this type: `String` and the string enums.
  var readsAnyString: Bool {
    switch self {
    case .string, .named(_, isStringEnum: true): true
    default: false
    }
  }
}
