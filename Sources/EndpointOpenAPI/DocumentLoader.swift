import Foundation

/// A document that parsed as JSON or YAML, declares OpenAPI 3.0 or 3.1, and whose local references all
/// resolve.
struct LoadedDocument {
  let root: JSONNode

  /// The node a local reference points at, following references to references.
  func resolve(_ reference: String) -> (node: JSONNode, pointer: String)? {
    var reference = reference
    for _ in 0..<16 {
      guard let tokens = JSONPointer.tokens(ofLocalReference: reference) else { return nil }
      var node = root
      var pointer = JSONPointer.root
      for token in tokens {
        switch node {
        case .object(let object):
          guard let next = object[token] else { return nil }
          node = next
        case .array(let array):
          guard let index = Int(token), array.indices.contains(index) else { return nil }
          node = array[index]
        default:
          return nil
        }
        pointer = JSONPointer.appending(token, to: pointer)
      }
      guard let next = node["$ref"]?.string else { return (node, pointer) }
      reference = next
    }
    return nil
  }
}

enum DocumentLoader {
  /// The document's tree: YAML when its name ends in `.yaml` or `.yml`, or when it does not
  /// start with `{` or `[`; JSON otherwise.
  static func parse(_ data: Data, named name: String) throws(OpenAPIGenerator.Failure) -> JSONNode {
    if isYAML(data, named: name) { return try YAMLReader.read(data, named: name) }
    do {
      return JSONNode(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    } catch {
      throw OpenAPIGenerator.Failure(
        kind: .notJSON,
        message: "\(name) is not JSON: \(Self.reason(error))"
      )
    }
  }

  static func isYAML(_ data: Data, named name: String) -> Bool {
    let lowered = name.lowercased()
    if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return true }
    let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    let text = data.starts(with: byteOrderMark) ? data.dropFirst(3) : data[...]
    guard let first = text.first(where: { !" \t\r\n".utf8.contains($0) }) else { return false }
    return first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
  }

  static func check(_ root: JSONNode) throws(OpenAPIGenerator.Failure) -> LoadedDocument {
    guard root.object != nil else {
      throw OpenAPIGenerator.Failure(
        kind: .notOpenAPI,
        message: "the document is not an object (a JSON object or a YAML mapping)")
    }
    guard let version = root["openapi"]?.string else {
      let swagger = root["swagger"]?.string
      throw OpenAPIGenerator.Failure(
        kind: .notOpenAPI,
        message: swagger.map { "a Swagger \($0) document; only OpenAPI 3.0 and 3.1 are read" }
          ?? "no \"openapi\" version: not an OpenAPI document"
      )
    }
    guard version.hasPrefix("3.0") || version.hasPrefix("3.1") else {
      throw OpenAPIGenerator.Failure(
        kind: .notOpenAPI,
        pointer: JSONPointer.appending("openapi", to: JSONPointer.root),
        message: "OpenAPI \(version); only 3.0 and 3.1 are read"
      )
    }
    let document = LoadedDocument(root: root)
    try checkReferences(in: root, at: JSONPointer.root, document: document)
    return document
  }

  /// Fails on the first local `$ref` that points at nothing, naming where it is written.
  private static func checkReferences(
    in node: JSONNode, at pointer: String, document: LoadedDocument
  ) throws(OpenAPIGenerator.Failure) {
    switch node {
    case .object(let object):
      if let reference = object["$ref"]?.string, reference.hasPrefix("#"),
        document.resolve(reference) == nil
      {
        throw OpenAPIGenerator.Failure(
          kind: .unresolvedReference,
          pointer: JSONPointer.appending("$ref", to: pointer),
          message: "\"\(reference)\" does not resolve"
        )
      }
      // Examples are data, where `$ref` is an ordinary key; a property may be named so too.
      let examplesAreData = !pointer.hasSuffix("/properties")
      for key in object.keys.sorted()
      where !(examplesAreData && (key == "example" || key == "examples")) {
        try checkReferences(
          in: object[key]!, at: JSONPointer.appending(key, to: pointer), document: document)
      }
    case .array(let array):
      for (index, element) in array.enumerated() {
        try checkReferences(
          in: element, at: JSONPointer.appending(String(index), to: pointer), document: document)
      }
    default:
      break
    }
  }

  private static func reason(_ error: any Error) -> String {
    let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return description ?? "JSONSerialization could not read it"
  }
}
