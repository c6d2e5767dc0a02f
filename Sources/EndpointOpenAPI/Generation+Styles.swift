/// Path parameters in the `simple`, `label` and `matrix` styles, object header parameters, and
/// unexploded array and object cookie parameters (RFC 6570, as the OpenAPI specification's
/// style table shows).
extension Generation {
  /// A path parameter's text: `prefix` as written in the path, then `expression` interpolated
  /// as one segment; `statements` first gather an object's parts.
  struct PathPiece {
    var statements: [String] = []
    var prefix: String
    var expression: String
  }

  /// The text before a value and between an array's or object's parts, by style and explode:
  /// `.` and `,` for `label`, `;name=` for `matrix`, nothing and `,` for `simple`.
  static func delimiters(_ parameter: ParameterDecl) -> (prefix: String, separator: String) {
    let isObject = parameter.fields != nil
    switch (parameter.style, parameter.explode) {
    case ("label", false): return (".", ",")
    case ("label", true): return (".", ".")
    case ("matrix", false): return (";\(parameter.wireName)=", ",")
    case ("matrix", true) where isObject: return (";", ";")
    case ("matrix", true): return (";\(parameter.wireName)=", ";\(parameter.wireName)=")
    default: return ("", ",")
    }
  }

  /// The piece of a path parameter; an array's or object's text is a local `segment` made by
  /// the statements (its parts gathered in `parts`), so the path literal stays short.
  static func pathPiece(_ parameter: ParameterDecl, segment: String, parts: String) -> PathPiece {
    let name = SwiftNames.escaped(parameter.name)
    let (prefix, separator) = delimiters(parameter)
    if let fields = parameter.fields {
      let join = "\(parts).joined(separator: \"\(escapedLiteral(separator))\")"
      return PathPiece(
        statements: objectParts(parameter, fields: fields, into: parts)
          + ["let \(segment) = \(join)"],
        prefix: prefix, expression: segment)
    }
    if case .array(let element) = parameter.type {
      return PathPiece(
        statements: ["let \(segment) = \(joined(name, element, separator: separator))"],
        prefix: prefix, expression: segment)
    }
    return PathPiece(prefix: prefix, expression: value(name, parameter.type, text: false))
  }

  /// `var parts: [String]` of an object's properties: `key=value` each when exploded, else
  /// `key` and `value` in turn; `nil` properties left out.
  static func objectParts(
    _ parameter: ParameterDecl, fields: [PropertyDecl], into parts: String
  ) -> [String] {
    let object = SwiftNames.escaped(parameter.name)
    var lines = ["var \(parts): [String] = []"]
    for field in fields {
      let member = object + "." + SwiftNames.escaped(field.name)
      let text = value(field.optional ? "value" : member, field.type, text: true)
      let key = "\"\(escapedLiteral(field.key))"
      let statement =
        parameter.explode
        ? "\(parts).append(\(key)=\" + \(text))" : "\(parts) += [\(key)\", \(text)]"
      lines += field.optional ? ["if let value = \(member) {", "  " + statement, "}"] : [statement]
    }
    return lines
  }

  /// An object header parameter, `simple`: `key,value,…`, or `key=value,…` when exploded.
  static func objectHeaderStatements(
    _ parameter: ParameterDecl, fields: [PropertyDecl], parts: String
  ) -> [String] {
    let name = SwiftNames.escaped(parameter.name)
    let lines =
      objectParts(parameter, fields: fields, into: parts) + [
        "headerFields[\"\(escapedLiteral(parameter.wireName))\"] = "
          + "\(parts).joined(separator: \",\")"
      ]
    return parameter.required ? lines : ["if let \(name) {"] + lines.map { "  " + $0 } + ["}"]
  }

  /// A cookie's array or object, `form` not exploded, as the local `text` (`a,b`, or
  /// `key,value,…`), and the parameter that sends it as a string.
  static func cookieText(
    _ parameter: ParameterDecl, text: String, parts: String
  ) -> (statements: [String], parameter: ParameterDecl) {
    let name = SwiftNames.escaped(parameter.name)
    var scalar = parameter
    (scalar.name, scalar.type, scalar.fields) = (text, .string, nil)
    if let fields = parameter.fields {
      let build =
        objectParts(parameter, fields: fields, into: parts)
        + ["\(text) = \(parts).joined(separator: \",\")"]
      if parameter.required { return (build.dropLast() + ["let " + build.last!], scalar) }
      let lines = ["var \(text): String?", "if let \(name) {"] + build.map { "  " + $0 } + ["}"]
      return (lines, scalar)
    }
    guard case .array(let element) = parameter.type else { return ([], parameter) }
    let join =
      parameter.required
      ? joined(name, element, separator: ",")
      : "\(name).map { \(joined("$0", element, separator: ",")) }"
    return (["let \(text) = \(join)"], scalar)
  }
}
