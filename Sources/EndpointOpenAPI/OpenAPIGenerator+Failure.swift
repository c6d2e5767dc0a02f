extension OpenAPIGenerator {
  /// Why a document or a configuration could not be turned into source.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
      /// The document is not JSON.
      case notJSON
      /// The document is YAML that cannot be read: a syntax error, a key written twice in one
      /// mapping, or aliases that expand too far. The message names the line and column.
      case notYAML
      /// The document is YAML and libyaml, which reads it, cannot be loaded; the message says
      /// how to install it.
      case yamlLibraryUnavailable
      /// The document is not an OpenAPI 3.0 or 3.1 document.
      case notOpenAPI
      /// A `$ref` points at nothing in the document.
      case unresolvedReference
      /// The configuration file is not valid.
      case invalidConfiguration
      /// With ``Options/strict``: a construct cannot be generated yet.
      case unsupportedConstruct
    }

    /// What went wrong.
    public var kind: Kind
    /// Where, as a JSON pointer (`#/paths/~1pets/get/responses/200/$ref`), when known.
    public var pointer: String?
    /// What went wrong, in a sentence.
    public var message: String

    /// Creates a failure.
    /// - Parameters:
    ///   - kind: what went wrong.
    ///   - pointer: where, as a JSON pointer.
    ///   - message: what went wrong, in a sentence.
    public init(kind: Kind, pointer: String? = nil, message: String) {
      self.kind = kind
      self.pointer = pointer
      self.message = message
    }

    /// The pointer, when known, and the message.
    public var description: String {
      pointer.map { "\($0): \(message)" } ?? message
    }
  }
}
