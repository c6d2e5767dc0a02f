/// Path parameters in the `simple`, `label` and `matrix` styles, object header parameters, and
/// unexploded array and object cookie parameters (RFC 6570, as the OpenAPI specification's
/// style table shows), their text values percent-encoded where a delimiter or the field's
/// grammar would misread them.
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

  /// Whether a parameter's text values are percent-encoded one by one (by the namespace's
  /// encoder): a path parameter's, rather than as one segment, in the `label` and `matrix`
  /// styles, and an array or object in `simple`, whose delimiters (`.` `,` `;` `=`) a segment
  /// would keep as they are and a value might hold; a header's array or object (`simple`),
  /// whose `,` a value might hold; every cookie's (`form`), whose `;` ends it. So are an
  /// object's keys, here, when one of them needs it, even if no value does.
  static func encodesEachValue(_ parameter: ParameterDecl) -> Bool {
    let encoder = parameter.location == .path ? segmentEncoder : fieldEncoder
    if let fields = parameter.fields,
      fields.contains(where: { encodedKey($0.key, by: encoder) != $0.key })
    {
      return true
    }
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
    case .string, .named, .dateTime, .base64: true
    default: false
    }
  }

  /// The name of the private function of a namespace that percent-encodes one value of a path
  /// segment (or of a query's unexploded `form` array or object, see `isRawQuery`). It needs no
  /// claim: every operation's parameters are labelled, so no operation's function has its
  /// signature `(_ text: String)`.
  static let segmentEncoder = "segmentText"

  /// That function: it encodes all but letters, digits, `-`, `_` and `~` (RFC 3986's
  /// unreserved characters, but `.`, which the label style delimits with and a segment of dots
  /// would climb the path with).
  static let segmentEncoderLines = [
    "/// `text` percent-encoded but for letters, digits, `-`, `_` and `~`, so that a value in a",
    "/// path segment or query keeps its style's delimiters (`.` `,` `;` `=` `&`) to itself.",
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
    percentEncoded(text) { byte in
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        true
      default: false
      }
    }
  }

  /// The name of the private function of a namespace that percent-encodes one value of a
  /// header field or cookie (see `segmentEncoder` for why it needs no claim).
  static let fieldEncoder = "fieldText"

  /// That function: it keeps visible ASCII but `"` `%` `,` `;` `\` (RFC 6265's cookie-octet,
  /// less the `%` it escapes with), which an RFC 9110 field value holds as it is too; it
  /// encodes the rest: a style's `,`, a cookie's `;`, spaces, control characters (a CR or LF
  /// never reaches the wire as a line break) and non-ASCII bytes.
  static let fieldEncoderLines = [
    "/// `text` percent-encoded but for visible ASCII other than `\"` `%` `,` `;` `\\`",
    "/// (RFC 6265's cookie octets, less `%`), so that a header field's or cookie's value keeps",
    "/// its style's `,` to itself, and a space or line break in it is sent as data.",
    "private static func \(fieldEncoder)(_ text: String) -> String {",
    "  let hex = Array(\"0123456789ABCDEF\".unicodeScalars)",
    "  var encoded = \"\"",
    "  for byte in text.utf8 {",
    "    if (0x21...0x7E).contains(byte) && !\"\\\"%,;\\\\\".utf8.contains(byte) {",
    "      encoded.unicodeScalars.append(Unicode.Scalar(byte))",
    "    } else {",
    "      encoded.unicodeScalars += [\"%\", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]",
    "    }",
    "  }",
    "  return encoded",
    "}",
  ]

  /// `text` as `fieldText(_:)` writes it, and with its `=` encoded too: for an object's keys,
  /// known here, which an exploded object follows with `=`.
  static func fieldKeyEncoded(_ text: String) -> String {
    percentEncoded(text) { byte in
      (0x21...0x7E).contains(byte) && !"\"%,;\\=".utf8.contains(byte)
    }
  }

  /// An object's key as `encoder` (one of the two above) would write it.
  static func encodedKey(_ key: String, by encoder: String) -> String {
    encoder == fieldEncoder ? fieldKeyEncoded(key) : segmentEncoded(key)
  }

  /// `text` with each UTF-8 byte that `keeps` refuses written as `%XX`.
  static func percentEncoded(_ text: String, keeps: (UInt8) -> Bool) -> String {
    let hex = Array("0123456789ABCDEF".unicodeScalars)
    var encoded = ""
    for byte in text.utf8 {
      if keeps(byte) {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
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
      let join = joined(name, element, separator: separator, encoder: encoder)
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

  /// An array's items as one value, joined by `separator`, each text item percent-encoded by
  /// `encoder` when there is one.
  static func joined(
    _ list: String, _ element: TypeRef, separator: String, encoder: String?
  ) -> String {
    guard let encoder else { return joined(list, element, separator: separator) }
    return "\(list).map { \(encoder)(\(value("$0", element, text: true))) }"
      + ".joined(separator: \"\(escapedLiteral(separator))\")"
  }

  /// `var parts: [String]` of an object's properties: `key=value` each when exploded, else
  /// `key` and `value` in turn; `nil` properties left out. With `encoder`, each key and text
  /// value (and number, when `encodesNumbers`) is percent-encoded, for a path segment
  /// interpolated as it is or a header field's or cookie's value.
  static func objectParts(
    _ parameter: ParameterDecl, fields: [PropertyDecl], into parts: String,
    encoder: String? = nil, encodesNumbers: Bool = false
  ) -> [String] {
    let object = SwiftNames.escaped(parameter.name)
    var lines = ["var \(parts): [String] = []"]
    for field in fields {
      let member = object + "." + SwiftNames.escaped(field.name)
      var text = value(field.optional ? "value" : member, field.type, text: true)
      var key = "\"\(escapedLiteral(field.key))"
      if let encoder {
        key = "\"\(escapedLiteral(encodedKey(field.key, by: encoder)))"
        if encodesNumbers || isText(field.type) { text = "\(encoder)(\(text))" }
      }
      let statement =
        parameter.explode
        ? "\(parts).append(\(key)=\" + \(text))" : "\(parts) += [\(key)\", \(text)]"
      lines += field.optional ? ["if let value = \(member) {", "  " + statement, "}"] : [statement]
    }
    return lines
  }

  /// An object header parameter, `simple`: `key,value,…`, or `key=value,…` when exploded;
  /// with `encoder`, its keys and text values percent-encoded.
  static func objectHeaderStatements(
    _ parameter: ParameterDecl, fields: [PropertyDecl], parts: String, encoder: String?
  ) -> [String] {
    let name = SwiftNames.escaped(parameter.name)
    let lines =
      objectParts(parameter, fields: fields, into: parts, encoder: encoder) + [
        "headerFields[\"\(escapedLiteral(parameter.wireName))\"] = "
          + "\(parts).joined(separator: \",\")"
      ]
    return parameter.required ? lines : ["if let \(name) {"] + lines.map { "  " + $0 } + ["}"]
  }

  /// A cookie's array or object, `form` not exploded, as the local `text` (`a,b`, or
  /// `key,value,…`; with `encoder`, its keys and text values percent-encoded), and the
  /// parameter that sends it as a string.
  static func cookieText(
    _ parameter: ParameterDecl, text: String, parts: String, encoder: String?
  ) -> (statements: [String], parameter: ParameterDecl) {
    let name = SwiftNames.escaped(parameter.name)
    var scalar = parameter
    (scalar.name, scalar.type, scalar.fields) = (text, .string, nil)
    if let fields = parameter.fields {
      let build =
        objectParts(parameter, fields: fields, into: parts, encoder: encoder)
        + ["\(text) = \(parts).joined(separator: \",\")"]
      if parameter.required { return (build.dropLast() + ["let " + build.last!], scalar) }
      let lines = ["var \(text): String?", "if let \(name) {"] + build.map { "  " + $0 } + ["}"]
      return (lines, scalar)
    }
    guard case .array(let element) = parameter.type else { return ([], parameter) }
    let join =
      parameter.required
      ? joined(name, element, separator: ",", encoder: encoder)
      : "\(name).map { \(joined("$0", element, separator: ",", encoder: encoder)) }"
    return (["let \(text) = \(join)"], scalar)
  }
}
