/// Path parameters in the `simple`, `label` and `matrix` styles, object header parameters, and
/// unexploded array and object cookie parameters (RFC 6570, as the OpenAPI specification's
/// style table shows).
extension Generation {
  /// A path parameter's text: `prefix` as written in the path, then `expression` interpolated
  /// as one segment (as it is when `raw`: its text was percent-encoded piece by piece);
  /// `statements` first gather an object's parts.
  struct PathPiece {
    var statements: [String] = []
    var prefix: String
    var expression: String
    var raw = false
  }

  /// Whether a path parameter's text values are percent-encoded one by one (by the namespace's
  /// encoder) rather than as one segment: in the `label` and `matrix` styles, and an array or
  /// object in `simple`, whose delimiters (`.` `,` `;` `=`) a segment would keep as they are
  /// and a value might hold.
  static func encodesEachValue(_ parameter: ParameterDecl) -> Bool {
    let texts: [TypeRef] =
      if let fields = parameter.fields {
        fields.map(\.type)
      } else if case .array(let element) = parameter.type {
        [element]
      } else {
        parameter.style == "simple" ? [] : [parameter.type]
      }
    return texts.contains(where: isText)
  }

  /// Whether a scalar's text is free text (a string, an enum's raw value) that may hold any
  /// character, or a date-time's, which holds `.` and `:`; not a number's or a boolean's.
  static func isText(_ type: TypeRef) -> Bool {
    switch type {
    case .string, .named, .dateTime: true
    default: false
    }
  }

  /// The name of the private function of a namespace that percent-encodes one value of a path
  /// segment. It needs no claim: every operation's parameters are labelled, so no operation's
  /// function has its signature `(_ text: String)`.
  static let segmentEncoder = "segmentText"

  /// That function: it encodes all but letters, digits, `-`, `_` and `~` (RFC 3986's
  /// unreserved characters, but `.`, which the label style delimits with and a segment of dots
  /// would climb the path with).
  static let segmentEncoderLines = [
    "/// `text` percent-encoded but for letters, digits, `-`, `_` and `~`, so that a value in a",
    "/// path segment keeps its style's delimiters (`.` `,` `;` `=`) to itself.",
    "private static func \(segmentEncoder)(_ text: String) -> String {",
    "  let hex = Array(\"0123456789ABCDEF\".unicodeScalars)",
    "  var encoded = \"\"",
    "  for byte in text.utf8 {",
    "    switch byte {",
    "    case UInt8(ascii: \"A\")...UInt8(ascii: \"Z\"), UInt8(ascii: \"a\")...UInt8(ascii: \"z\"),",
    "      UInt8(ascii: \"0\")...UInt8(ascii: \"9\"), UInt8(ascii: \"-\"), UInt8(ascii: \"_\"),",
    "      UInt8(ascii: \"~\"):",
    "      encoded.unicodeScalars.append(Unicode.Scalar(byte))",
    "    default:",
    "      encoded.unicodeScalars += [\"%\", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]",
    "    }",
    "  }",
    "  return encoded",
    "}",
  ]

  /// `text` as the generated encoder writes it: for an object's keys, known here.
  static func segmentEncoded(_ text: String) -> String {
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

  /// The text before a value and between an array's or object's parts, by style and explode:
  /// `.` and `,` for `label`, `;name=` for `matrix`, nothing and `,` for `simple`; the name
  /// percent-encoded when `encoded`.
  static func delimiters(
    _ parameter: ParameterDecl, encoded: Bool = false
  ) -> (prefix: String, separator: String) {
    let isObject = parameter.fields != nil
    let name = encoded ? segmentEncoded(parameter.wireName) : parameter.wireName
    switch (parameter.style, parameter.explode) {
    case ("label", false): return (".", ",")
    case ("label", true): return (".", ".")
    case ("matrix", false): return (";\(name)=", ",")
    case ("matrix", true) where isObject: return (";", ";")
    case ("matrix", true): return (";\(name)=", ";\(name)=")
    default: return ("", ",")
    }
  }

  /// The piece of a path parameter; an array's or object's text is a local `segment` made by
  /// the statements (its parts gathered in `parts`), so the path literal stays short. With
  /// `encoder`, each text value is percent-encoded by it and the piece is `raw`.
  static func pathPiece(
    _ parameter: ParameterDecl, segment: String, parts: String, encoder: String? = nil
  ) -> PathPiece {
    let name = SwiftNames.escaped(parameter.name)
    let raw = encoder != nil
    let (prefix, separator) = delimiters(parameter, encoded: raw)
    if let fields = parameter.fields {
      let join = "\(parts).joined(separator: \"\(escapedLiteral(separator))\")"
      return PathPiece(
        statements: objectParts(parameter, fields: fields, into: parts, encoder: encoder)
          + ["let \(segment) = \(join)"],
        prefix: prefix, expression: segment, raw: raw)
    }
    if case .array(let element) = parameter.type {
      let list =
        encoder.map { "\(name).map { \($0)(\(value("$0", element, text: true))) }" } ?? name
      let join =
        raw
        ? "\(list).joined(separator: \"\(escapedLiteral(separator))\")"
        : joined(name, element, separator: separator)
      return PathPiece(
        statements: ["let \(segment) = \(join)"], prefix: prefix, expression: segment, raw: raw)
    }
    guard let encoder else {
      return PathPiece(prefix: prefix, expression: value(name, parameter.type, text: false))
    }
    return PathPiece(
      prefix: prefix, expression: "\(encoder)(\(value(name, parameter.type, text: true)))",
      raw: true)
  }

  /// `var parts: [String]` of an object's properties: `key=value` each when exploded, else
  /// `key` and `value` in turn; `nil` properties left out. With `encoder`, each key and text
  /// value is percent-encoded, for a path segment interpolated as it is.
  static func objectParts(
    _ parameter: ParameterDecl, fields: [PropertyDecl], into parts: String,
    encoder: String? = nil
  ) -> [String] {
    let object = SwiftNames.escaped(parameter.name)
    var lines = ["var \(parts): [String] = []"]
    for field in fields {
      let member = object + "." + SwiftNames.escaped(field.name)
      var text = value(field.optional ? "value" : member, field.type, text: true)
      var key = "\"\(escapedLiteral(field.key))"
      if let encoder {
        key = "\"\(escapedLiteral(segmentEncoded(field.key)))"
        if isText(field.type) { text = "\(encoder)(\(text))" }
      }
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
