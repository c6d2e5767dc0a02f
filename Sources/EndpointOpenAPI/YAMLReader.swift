internal import CYAML
import Foundation

/// Reads a YAML document into the `JSONNode` tree a JSON document makes, through libyaml's event
/// API, so that everything after loading is the same for both.
///
/// Plain scalars are typed by the YAML 1.2 core schema (`null`, `~` and nothing are null; `true`
/// and `false` booleans; decimal, `0o` and `0x` integers and floats, `.inf` and `.nan` numbers;
/// anything else, `yes` and `2024-01-01` included, a string); quoted and block scalars are
/// strings unless a standard tag (`!!int`, `!!float`, `!!bool`, `!!null`) says otherwise.
/// Anchors and aliases are followed, merge keys (`<<`) merged with the mapping's own keys
/// winning, and a key written twice in one mapping is an error. Errors name the line and column.
struct YAMLReader {
  /// The nodes all aliases of a document may repeat, added up: a document of nested aliases
  /// ("billion laughs") fails at once instead of growing without bound.
  static let aliasedNodeLimit = 1_000_000

  /// How deep mappings and sequences may nest.
  static let depthLimit = 512

  /// Reads the one document in `data`; `unavailable`, why libyaml cannot be used, if it cannot.
  static func read(
    _ data: Data, named name: String,
    unavailable: OpenAPIGenerator.Failure? = YAMLLibrary.unavailable
  ) throws(OpenAPIGenerator.Failure) -> JSONNode {
    if let unavailable { throw unavailable }
    var reader = YAMLReader(name: name)
    let outcome: Result<JSONNode, OpenAPIGenerator.Failure> = data.withUnsafeBytes { bytes in
      let start = bytes.bindMemory(to: UInt8.self).baseAddress
      // libyaml reads nothing from an empty input, but wants a pointer.
      let empty: [UInt8] = [0]
      return empty.withUnsafeBufferPointer { placeholder in
        guard let parser = cyaml_parser_new(start ?? placeholder.baseAddress, bytes.count) else {
          return .failure(reader.failure("libyaml could not start a parser (out of memory)"))
        }
        defer { cyaml_parser_free(parser) }
        return Result { () throws(OpenAPIGenerator.Failure) in try reader.run(parser) }
      }
    }
    return try outcome.get()
  }

  private let name: String
  private var stack: [Frame] = []
  private var anchors: [String: Anchored] = [:]
  /// Every node of the document read so far, each alias counted as the nodes it repeats.
  private var expandedNodes = 0
  private var aliasedNodes = 0
  private var root: JSONNode?
  private var documents = 0

  private init(name: String) {
    self.name = name
  }

  /// A node an anchor names: what an alias repeats.
  private struct Anchored {
    var node: JSONNode
    var nodes: Int
    /// The text of a scalar, for an alias used as a key.
    var text: String?
  }

  /// Where a node begins, from 1.
  private struct Position {
    var line: Int
    var column: Int
  }

  /// A mapping or sequence being read.
  private struct Frame {
    var anchor: String?
    var start: Position
    var nodesBefore: Int
    /// The key in the parent under which this node goes, for pointers in messages.
    var token: String
    var items: [JSONNode]?
    var entries: [String: JSONNode] = [:]
    var merged: [[String: JSONNode]] = []
    /// The key read, waiting for its value, and where it was written.
    var key: (text: String, isMerge: Bool, at: Position)?
  }

  private mutating func run(_ parser: OpaquePointer) throws(OpenAPIGenerator.Failure) -> JSONNode {
    var event = cyaml_event()
    while true {
      guard cyaml_parser_next(parser, &event) != 0 else { throw syntaxError(parser) }
      let at = Position(line: event.line + 1, column: event.column + 1)
      switch Int32(event.type) {
      case CYAML_STREAM_END_EVENT:
        return root ?? .null
      case CYAML_DOCUMENT_START_EVENT:
        documents += 1
        guard documents == 1 else {
          throw failure("a second document (`---`); an OpenAPI file holds one", at: at)
        }
      case CYAML_SCALAR_EVENT:
        let text = Self.string(event.value, length: event.length)
        if let key = keyExpected() {
          let isMerge = event.style == CYAML_PLAIN_SCALAR_STYLE && event.tag == nil && text == "<<"
          stack[key].key = (text, isMerge, at)
          if let anchor = Self.string(event.anchor) {
            anchors[anchor] = Anchored(node: .string(text), nodes: 1, text: text)
          }
          expandedNodes += 1
          continue
        }
        let node = try scalar(text, tag: Self.string(event.tag), style: event.style, at: at)
        expandedNodes += 1
        if let anchor = Self.string(event.anchor) {
          anchors[anchor] = Anchored(node: node, nodes: 1, text: text)
        }
        try add(node, at: at)
      case CYAML_ALIAS_EVENT:
        let anchor = Self.string(event.anchor) ?? ""
        guard let anchored = anchors[anchor] else {
          throw failure("the alias *\(anchor) names no anchor before it", at: at)
        }
        aliasedNodes += anchored.nodes
        expandedNodes += anchored.nodes
        guard aliasedNodes <= Self.aliasedNodeLimit else {
          throw failure(
            "aliases repeat more than \(Self.aliasedNodeLimit) nodes (the last was *\(anchor)); "
              + "a document that expands this much is refused", at: at)
        }
        if let key = keyExpected() {
          guard let text = anchored.text else {
            throw failure("the alias *\(anchor) is used as a key but is not a scalar", at: at)
          }
          stack[key].key = (text, false, at)
          continue
        }
        try add(anchored.node, at: at)
      case CYAML_SEQUENCE_START_EVENT, CYAML_MAPPING_START_EVENT:
        if keyExpected() != nil {
          throw failure("a key that is a mapping or a sequence; OpenAPI keys are strings", at: at)
        }
        guard stack.count < Self.depthLimit else {
          throw failure("mappings and sequences nest deeper than \(Self.depthLimit)", at: at)
        }
        let isSequence = Int32(event.type) == CYAML_SEQUENCE_START_EVENT
        stack.append(
          Frame(
            anchor: Self.string(event.anchor), start: at, nodesBefore: expandedNodes,
            token: currentToken(), items: isSequence ? [] : nil))
        expandedNodes += 1
      case CYAML_SEQUENCE_END_EVENT, CYAML_MAPPING_END_EVENT:
        let frame = stack.removeLast()
        var node: JSONNode
        if let items = frame.items {
          node = .array(items)
        } else {
          var entries = frame.entries
          for mapping in frame.merged {
            entries.merge(mapping) { own, _ in own }
          }
          node = .object(entries)
        }
        if let anchor = frame.anchor {
          anchors[anchor] = Anchored(node: node, nodes: expandedNodes - frame.nodesBefore)
        }
        try add(node, at: frame.start)
      default:
        break
      }
    }
  }

  /// The index of the mapping frame whose next node is a key, or `nil` when a value is next.
  private func keyExpected() -> Int? {
    guard let last = stack.indices.last, stack[last].items == nil, stack[last].key == nil
    else { return nil }
    return last
  }

  /// The reference token the next node will have in its parent.
  private func currentToken() -> String {
    guard let frame = stack.last else { return "" }
    if let items = frame.items { return String(items.count) }
    return frame.key?.text ?? ""
  }

  /// Where the node being read is, as a JSON pointer.
  private func pointer(adding token: String? = nil) -> String {
    var pointer = JSONPointer.root
    for frame in stack.dropFirst() { pointer = JSONPointer.appending(frame.token, to: pointer) }
    if let token { pointer = JSONPointer.appending(token, to: pointer) }
    return pointer
  }

  /// Puts a finished node in its parent, or makes it the document.
  private mutating func add(_ node: JSONNode, at position: Position)
    throws(OpenAPIGenerator.Failure)
  {
    guard let last = stack.indices.last else {
      root = node
      return
    }
    if stack[last].items != nil {
      stack[last].items!.append(node)
      return
    }
    guard let key = stack[last].key else { return }
    stack[last].key = nil
    if key.isMerge {
      let mappings = node.object.map { [$0] } ?? node.array?.compactMap(\.object)
      guard let mappings, mappings.count == (node.array?.count ?? 1) else {
        throw failure(
          "a merge key (<<) takes a mapping or a list of mappings", at: position,
          pointer: pointer())
      }
      stack[last].merged += mappings
      return
    }
    guard stack[last].entries.updateValue(node, forKey: key.text) == nil else {
      throw failure(
        "the key \"\(key.text)\" is written twice in this mapping", at: key.at,
        pointer: pointer(adding: key.text))
    }
  }

  /// A scalar's value: typed by the core schema when plain and untagged, else by its tag.
  private func scalar(_ text: String, tag: String?, style: Int32, at position: Position)
    throws(OpenAPIGenerator.Failure) -> JSONNode
  {
    let standard = "tag:yaml.org,2002:"
    guard let tag else {
      return style == CYAML_PLAIN_SCALAR_STYLE ? YAMLScalar.resolve(text) : .string(text)
    }
    guard tag.hasPrefix(standard) else { return .string(text) }
    let resolved = YAMLScalar.resolve(text)
    switch (tag.dropFirst(standard.count), resolved) {
    case ("str", _): return .string(text)
    case ("null", .null), ("bool", .bool), ("int", .number), ("float", .number): return resolved
    case ("null", _), ("bool", _), ("int", _), ("float", _):
      throw failure("\"\(text)\" is not a valid !!\(tag.dropFirst(standard.count))", at: position)
    default: return .string(text)
    }
  }

  private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }

  private static func string(_ pointer: UnsafePointer<CChar>?, length: Int) -> String {
    guard let pointer else { return "" }
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }

  private func syntaxError(_ parser: OpaquePointer) -> OpenAPIGenerator.Failure {
    var error = cyaml_error()
    cyaml_parser_error(parser, &error)
    var message = Self.string(error.problem) ?? "not YAML"
    if let context = Self.string(error.context) {
      message +=
        " (\(context) at line \(error.context_line + 1), "
        + "column \(error.context_column + 1))"
    }
    return failure(message, at: Position(line: error.line + 1, column: error.column + 1))
  }

  private func failure(
    _ message: String, at position: Position? = nil, pointer: String? = nil
  ) -> OpenAPIGenerator.Failure {
    let place = position.map { ", line \($0.line), column \($0.column)" } ?? ""
    return OpenAPIGenerator.Failure(
      kind: .notYAML, pointer: pointer, message: "\(name)\(place): \(message)")
  }
}
