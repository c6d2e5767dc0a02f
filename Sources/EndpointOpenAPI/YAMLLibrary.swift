internal import CYAML

/// The process's libyaml: opened with `dlopen` on the first YAML document, never closed. The
/// generator builds and runs without it; only reading YAML needs it.
enum YAMLLibrary {
  /// The shared libraries looked for, in turn, separated by colons.
  static let defaultNames = CYAML_LIBRARY_NAMES

  /// Opens the first of `names` (colon-separated) that has every function the reader calls.
  ///
  /// With `install`, the first library that loads becomes the one every parser uses; without,
  /// the library is only probed and closed again.
  static func load(_ names: String, install: Bool) -> OpenAPIGenerator.Failure? {
    var message = [CChar](repeating: 0, count: 2048)
    let status = message.withUnsafeMutableBufferPointer { buffer in
      cyaml_load(names, install ? 1 : 0, buffer.baseAddress, buffer.count)
    }
    guard status != 0 else { return nil }
    let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return OpenAPIGenerator.Failure(
      kind: .yamlLibraryUnavailable,
      message: "reading YAML needs libyaml, which cannot be loaded (\(reason)); install it "
        + "(`apt-get install libyaml-0-2` on Debian and Ubuntu, `brew install libyaml` on "
        + "macOS) or convert the document to JSON"
    )
  }

  /// `nil` once libyaml is loaded, otherwise why it cannot be. Evaluated once per process, on
  /// first use.
  static let unavailable: OpenAPIGenerator.Failure? = load(defaultNames, install: true)

  /// The loaded library's version, such as `0.2.5`; empty before it is loaded.
  static var version: String { String(cString: cyaml_version()) }
}
