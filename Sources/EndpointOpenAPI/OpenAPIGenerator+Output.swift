extension OpenAPIGenerator {
  /// What a generation made: the files to write and the constructs it left out.
  public struct Output: Sendable, Hashable {
    /// The generated files: the namespaces, then the models, each in a stable order, then the
    /// support files, `Support/RFC3339.swift` and `Support/CalendarDay.swift`, each when a
    /// declaration or an operation uses it. With
    /// ``Options/modelsModule`` set, only the namespaces: the rest is in ``models``.
    public var files: [File]
    /// The constructs left out because they cannot be generated yet, ordered by pointer.
    public var warnings: [Warning]
    /// With ``Options/stubs`` set, one `<Namespace>+Stubs.swift` per namespace: canned
    /// answers from the document's examples for a `StubClient`, source for a test target (it
    /// imports EndpointTesting); empty otherwise.
    public var stubs: [File]
    /// With ``Options/modelsModule`` set, the files of the models module: the public models
    /// (`User.swift`, without the `Models/` directory) in a stable order, then the support
    /// files when a declaration or an operation uses them; empty otherwise.
    public var models: [File]

    /// Creates an output.
    /// - Parameters:
    ///   - files: the generated files.
    ///   - warnings: the constructs left out.
    ///   - stubs: the stub files, for a test target.
    ///   - models: the files of the models module.
    public init(files: [File], warnings: [Warning], stubs: [File] = [], models: [File] = []) {
      self.files = files
      self.warnings = warnings
      self.stubs = stubs
      self.models = models
    }
  }

  /// One generated Swift file.
  public struct File: Sendable, Hashable {
    /// The file's path relative to the output directory: `Repos.swift`, `Models/User.swift`.
    public var path: String
    /// The Swift source.
    public var contents: String

    /// Creates a file.
    /// - Parameters:
    ///   - path: the path relative to the output directory.
    ///   - contents: the Swift source.
    public init(path: String, contents: String) {
      self.path = path
      self.contents = contents
    }
  }

  /// A construct of the document that was left out, and why.
  public struct Warning: Sendable, Hashable, CustomStringConvertible {
    /// Where the construct is: a JSON pointer such as `#/components/schemas/Pet/oneOf`.
    public var pointer: String
    /// Why it was left out, and what was left out with it.
    public var message: String

    /// Creates a warning.
    /// - Parameters:
    ///   - pointer: the construct's JSON pointer.
    ///   - message: why it was left out.
    public init(pointer: String, message: String) {
      self.pointer = pointer
      self.message = message
    }

    /// The pointer and the message: `#/paths/~1pets/get: …`.
    public var description: String { "\(pointer): \(message)" }
  }
}
