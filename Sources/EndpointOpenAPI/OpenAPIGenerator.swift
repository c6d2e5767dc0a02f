import Foundation

/// Turns an OpenAPI 3.0 or 3.1 document into Swift source: typed endpoints grouped in one
/// namespace per tag, and `Codable` models for the document's schemas.
///
/// The source it writes imports only EndpointCore and EndpointJSON; the generator itself is a
/// build tool that an app never links.
///
/// ```swift
/// let document = try Data(contentsOf: URL(fileURLWithPath: "api.json"))
/// let generator = OpenAPIGenerator(options: .init(namespacePrefix: "GitHub"))
/// let output = try generator.generate(document: document, named: "api.json")
/// for file in output.files { print(file.path) }
/// ```
///
/// A construct it cannot express yet is not guessed at: it is left out and reported in
/// ``Output/warnings`` with its JSON pointer, or, with ``Options/strict``, thrown.
public struct OpenAPIGenerator: Sendable {
  /// What to generate and how.
  public var options: Options

  /// Creates a generator.
  /// - Parameter options: what to generate and how; everything, `internal`, by default.
  public init(options: Options = Options()) {
    self.options = options
  }

  /// Generates the Swift source for a document.
  ///
  /// - Parameters:
  ///   - document: the document's bytes, JSON or YAML.
  ///   - name: the document's file name, for the generated files' header and messages; a name
  ///     ending in `.yaml` or `.yml`, or bytes that do not start with `{` or `[`, are read as
  ///     YAML (through libyaml, loaded on first use).
  /// - Returns: the files to write and the constructs left out.
  /// - Throws: ``Failure`` when the document cannot be read: not JSON or YAML (or libyaml
  ///   cannot be loaded for a YAML document), not OpenAPI 3.0 or 3.1,
  ///   a `$ref` that does not resolve, ``Options/modelsModule`` that cannot name a module, or,
  ///   with ``Options/strict``, any construct left out.
  public func generate(document: Data, named name: String) throws(Failure) -> Output {
    if let module = options.modelsModule, !Options.isModuleName(module) {
      throw Failure(
        kind: .invalidConfiguration,
        message: "the models module \"\(module)\" is not a module name: letters, digits and _, "
          + "not first a digit")
    }
    let root = try DocumentLoader.parse(document, named: name)
    let loaded = try DocumentLoader.check(root)
    var generation = Generation(document: loaded, options: options, documentName: name)
    let output = generation.run()
    if options.strict, let first = output.warnings.first {
      throw Failure(
        kind: .unsupportedConstruct,
        pointer: first.pointer,
        message: "\(output.warnings.count) construct(s) cannot be generated yet (--strict); "
          + "the first: \(first.message)"
      )
    }
    return output
  }
}
