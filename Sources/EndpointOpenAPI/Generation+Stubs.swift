import Foundation

/// Canned answers for a `StubClient`, made from the document's examples.
extension Generation {
  /// One operation's canned answer: its method and path template, and what it answers.
  struct StubDecl {
    var function: String
    var method: String
    var path: String
    /// The `StubClient` path template: the path, each segment that mixes a parameter with
    /// other text (`{name}.json`) matching any one segment.
    var pattern: String
    var status: Int
    var contentType: String?
    /// The body's Swift expression (`Data(…)`), or `nil` for none.
    var body: [String]?
  }

  /// The canned answer of an operation: its first 2xx response's example (of the media type's
  /// `example`, its first `examples`, or else its schema's examples), or no body when the
  /// response has no content. `nil` when a response with content has no example.
  mutating func stub(
    _ operation: JSONNode, function: String, method: String, path: String, pointer: String
  ) -> StubDecl? {
    let responses = operation["responses"]?.object ?? [:]
    let responsesPointer = JSONPointer.appending("responses", to: pointer)
    guard let success = responses.keys.filter({ $0.hasPrefix("2") }).sorted().first,
      let (response, responsePointer) = try? responseNode(
        responses[success]!, at: JSONPointer.appending(success, to: responsesPointer))
    else { return nil }
    var stub = StubDecl(
      function: function, method: method, path: path, pattern: Self.stubPattern(path),
      status: Int(success) ?? 200)
    let content = response["content"]?.object ?? [:]
    if content.isEmpty { return stub }
    // JSON first, then the other media types in order.
    let keys = content.keys.sorted { left, right in
      let (leftJSON, rightJSON) = (Self.hasJSON([left: .null]), Self.hasJSON([right: .null]))
      return leftJSON != rightJSON ? leftJSON : left < right
    }
    let contentPointer = JSONPointer.appending("content", to: responsePointer)
    for key in keys {
      let media = content[key]!
      let mediaPointer = JSONPointer.appending(key, to: contentPointer)
      guard
        let value = example(of: media, at: mediaPointer)
          ?? media["schema"].flatMap({ schemaExample($0, depth: 0) })
      else { continue }
      let json = Self.hasJSON([key: .null])
      let text: String
      if json {
        text = Self.jsonText(value)
      } else if let string = value.string {
        text = string
      } else {
        continue
      }
      stub.contentType = key == "*/*" ? "application/octet-stream" : key
      stub.body = Self.dataLiteral(text, pretty: json ? Self.jsonText(value, indent: "") : nil)
      return stub
    }
    return nil
  }

  /// A path as a `StubClient` template, whose placeholders match whole segments only: a
  /// segment with a parameter and other text becomes a placeholder for any segment.
  static func stubPattern(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
      guard let open = segment.firstIndex(of: "{"),
        let close = segment[open...].firstIndex(of: "}")
      else { return String(segment) }
      return "{" + segment[segment.index(after: open)..<close] + "}"
    }.joined(separator: "/")
  }

  /// A media type's `example`, or the value of its first `examples` entry (by name); an
  /// external one is reported and passed over.
  private mutating func example(of media: JSONNode, at pointer: String) -> JSONNode? {
    if let value = media["example"] { return value }
    let examples = media["examples"]?.object ?? [:]
    for name in examples.keys.sorted() {
      var entry = examples[name]!
      let entryPointer = JSONPointer.appending(
        name, to: JSONPointer.appending("examples", to: pointer))
      if let reference = entry["$ref"]?.string {
        guard let (target, _) = document.resolve(reference) else { continue }
        entry = target
      }
      if let value = entry["value"] { return value }
      if entry["externalValue"] != nil {
        warn(
          Unsupported(
            pointer: JSONPointer.appending("externalValue", to: entryPointer),
            message: "an external example is not read"),
          "the stub does not use it")
      }
    }
    return nil
  }

  /// A schema's own example, or one made of its items' or properties' examples (and its
  /// `allOf` members'): an object's only when every required property has one.
  private func schemaExample(_ schema: JSONNode, depth: Int) -> JSONNode? {
    guard depth < 8 else { return nil }
    var schema = schema
    if let reference = schema["$ref"]?.string {
      guard let (target, _) = document.resolve(reference) else { return nil }
      schema = target
    }
    if let value = schema["example"] { return value }
    if let value = schema["examples"]?.array?.first { return value }
    if let items = schema["items"] {
      return schemaExample(items, depth: depth + 1).map { .array([$0]) }
    }
    var object: [String: JSONNode] = [:]
    // `allOf`: the members' objects merged, each member's example needed.
    for member in schema["allOf"]?.array ?? [] {
      guard case .object(let part) = schemaExample(member, depth: depth + 1) else { return nil }
      object.merge(part) { _, new in new }
    }
    guard let properties = schema["properties"]?.object else {
      return object.isEmpty ? nil : .object(object)
    }
    let required = Set((schema["required"]?.array ?? []).compactMap(\.string))
    for (name, property) in properties {
      if let value = schemaExample(property, depth: depth + 1) {
        object[name] = value
      } else if required.contains(name) {
        return nil
      }
    }
    return object.isEmpty ? nil : .object(object)
  }

  /// The stub file of a namespace: an extension with `addStubs(to:)` and `stubClient(baseURL:)`.
  func emitStubs(namespace: NamespaceDecl) -> String {
    var lines = ["import EndpointTesting"] + modelsImport + [""] + Self.foundationImport + [""]
    lines.append("extension \(namespace.name) {")
    lines += [
      "  /// Adds to `stub` the canned answer of each operation that the document gives an",
      "  /// example for (or that answers with no content): any value of a path parameter",
      "  /// matches, and every rule may answer any number of times, or never.",
    ]
    if !namespace.unstubbed.isEmpty {
      lines += ["  ///", "  /// Without an example, so not answered:"]
      lines += namespace.unstubbed.map { "  /// - `\($0)`" }
    }
    lines.append("  \(access)static func addStubs(to stub: StubClient) {")
    // Literal paths before templates, so `/pets/mine` is not taken by `/pets/{id}`.
    let ordered = namespace.stubs.enumerated().sorted { left, right in
      let (leftTemplate, rightTemplate) = (
        left.element.pattern.contains("{"), right.element.pattern.contains("{")
      )
      return leftTemplate != rightTemplate ? !leftTemplate : left.offset < right.offset
    }.map(\.element)
    for stub in ordered {
      let pattern = "\"\(Self.escapedLiteral(stub.pattern))\""
      lines.append("    // \(stub.function): `\(stub.method.uppercased()) \(stub.path)`")
      guard let body = stub.body else {
        lines.append(
          "    stub.on(.\(stub.method), \(pattern)).reply(status: \(stub.status)).optional()")
        continue
      }
      let headers = "[\"Content-Type\": \"\(Self.escapedLiteral(stub.contentType ?? ""))\"]"
      lines.append("    stub.on(.\(stub.method), \(pattern)).reply(")
      lines.append("      status: \(stub.status), headers: \(headers),")
      lines.append("      body: " + body[0])
      lines += body.dropFirst().map { $0.isEmpty ? "" : "      " + $0 }
      lines.append("    ).optional()")
    }
    lines += [
      "  }",
      "",
      "  /// A stub client answering the operations of ``addStubs(to:)``.",
      "  ///",
      "  /// - Parameter baseURL: the base URL the endpoints are called under, if any.",
      "  \(access)static func stubClient(baseURL: URL? = nil) -> StubClient {",
      "    let stub = StubClient(baseURL: baseURL)",
      "    addStubs(to: stub)",
      "    return stub",
      "  }",
      "}",
    ]
    return header + "\n" + lines.joined(separator: "\n") + "\n"
  }

  /// `Data(…)` of a text's UTF-8 bytes, in a raw string on one line when it fits, else in a
  /// multi-line raw string of `pretty` (or the text) that ends the first line.
  static func dataLiteral(_ text: String, pretty: String?) -> [String] {
    let hashes = String(repeating: "#", count: rawDelimiterLength(text + (pretty ?? "")))
    let oneLine = "Data(\(hashes)\"\(text)\"\(hashes).utf8)"
    if !text.contains(where: \.isNewline), !text.contains("\""), oneLine.count + 12 <= lineLength {
      return ["Data(\"\(escapedLiteral(text))\".utf8)"]
    }
    if !text.contains(where: \.isNewline), oneLine.count + 12 <= lineLength { return [oneLine] }
    let body = (pretty ?? text).split(separator: "\n", omittingEmptySubsequences: false)
    let lines = ["Data(", "  \(hashes)\"\"\""] + body.map { $0.isEmpty ? "" : "  " + $0 }
    return lines + ["  \"\"\"\(hashes).utf8)"]
  }

  /// The number of `#` a raw string needs so that no `"` or `\` of the text ends it or starts
  /// an interpolation.
  static func rawDelimiterLength(_ text: String) -> Int {
    var longest = 0
    var run: Int?
    for character in text {
      if character == "\"" || character == "\\" {
        run = 0
      } else if character == "#", let count = run {
        run = count + 1
        longest = max(longest, count + 1)
      } else {
        run = nil
      }
    }
    return longest + 1
  }

  /// A value as JSON text: on one line without `indent`, else an object or array's members one
  /// a line, nested by two spaces; keys sorted.
  static func jsonText(_ value: JSONNode, indent: String? = nil) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .number(let number):
      if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
      return "\(number)"
    case .string(let string): return jsonString(string)
    case .array(let array):
      guard !array.isEmpty else { return "[]" }
      guard let indent else { return "[" + array.map { jsonText($0) }.joined(separator: ",") + "]" }
      let inner = indent + "  "
      let members = array.map { inner + jsonText($0, indent: inner) }
      return "[\n" + members.joined(separator: ",\n") + "\n" + indent + "]"
    case .object(let object):
      guard !object.isEmpty else { return "{}" }
      let keys = object.keys.sorted()
      guard let indent else {
        return "{"
          + keys.map { jsonString($0) + ":" + jsonText(object[$0]!) }
          .joined(separator: ",") + "}"
      }
      let inner = indent + "  "
      let members = keys.map {
        inner + jsonString($0) + ": " + jsonText(object[$0]!, indent: inner)
      }
      return "{\n" + members.joined(separator: ",\n") + "\n" + indent + "}"
    }
  }

  /// A string as JSON text, as Foundation writes it.
  private static func jsonString(_ string: String) -> String {
    let data = try? JSONSerialization.data(
      withJSONObject: string, options: [.fragmentsAllowed, .withoutEscapingSlashes])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }
}
