import EndpointCore
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An XML element as S3 answers them: a name, its text, its child elements. Small and enough for
/// S3's documents, which use neither attributes that matter nor mixed content.
struct XMLNode: Sendable {
  var name: String
  var text = ""
  var children: [XMLNode] = []

  /// The first child named `name`.
  subscript(_ name: String) -> XMLNode? { children.first { $0.name == name } }

  /// Every child named `name`, in order.
  func all(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }

  /// The text of the first child named `name`.
  func text(_ name: String) -> String? { self[name]?.text }

  /// Parses a document with FoundationXML's `XMLParser`; the root element is returned.
  ///
  /// - Throws: `ParsingFailure` naming the parser's error and where it stopped.
  static func parse(_ data: Data, as type: String) throws -> XMLNode {
    let builder = TreeBuilder()
    let parser = XMLParser(data: data)
    // No DTDs, no external entities: a response is data, never a reason to open a file or URL.
    parser.shouldResolveExternalEntities = false
    parser.delegate = builder
    guard parser.parse(), let root = builder.root else {
      let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
      throw ParsingFailure(
        type: type,
        reason: "not XML (\(reason), line \(parser.lineNumber))",
        body: data)
    }
    return root
  }
}

/// Builds the tree as `XMLParser` reports elements.
private final class TreeBuilder: NSObject, XMLParserDelegate {
  var stack: [XMLNode] = []
  var root: XMLNode?

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    stack.append(XMLNode(name: elementName))
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].text += string
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName: String?
  ) {
    guard var node = stack.popLast() else { return }
    if !node.children.isEmpty { node.text = "" }
    if stack.isEmpty {
      root = node
    } else {
      stack[stack.count - 1].children.append(node)
    }
  }
}

extension ResponseParser {
  /// A parser that reads the body as XML (`Accept: application/xml`) and makes the value from
  /// its root element; a body that is not XML, or lacks what `make` needs, is a
  /// `ParsingFailure` with a preview of the body.
  static func xml(
    _ type: String,
    expecting root: String,
    _ make: @escaping @Sendable (XMLNode, HTTPResponse) throws -> Value
  ) -> ResponseParser {
    ResponseParser(accept: "application/xml") { response, body in
      let node = try XMLNode.parse(body, as: type)
      guard node.name == root else {
        throw ParsingFailure(
          type: type, reason: "the root element is <\(node.name)>, not <\(root)>", body: body)
      }
      do {
        return try make(node, response)
      } catch let missing as MissingElement {
        throw ParsingFailure(type: type, reason: missing.description, body: body)
      }
    }
  }
}

/// An element S3 always sends was not there.
struct MissingElement: Error, CustomStringConvertible {
  var path: String
  var description: String { "no <\(path)> element" }
}

extension XMLNode {
  /// The text of the child named `name`, or `MissingElement`.
  func required(_ name: String) throws -> String {
    guard let text = text(name) else { throw MissingElement(path: "\(self.name)/\(name)") }
    return text
  }
}
