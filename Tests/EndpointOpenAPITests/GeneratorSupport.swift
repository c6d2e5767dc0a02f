import EndpointOpenAPI
import Foundation

/// The test target's directory, where `Documents/` and `Generated/` are.
let testDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// Generates from a document written in the test.
func generate(
  _ json: String, options: OpenAPIGenerator.Options = .init()
) throws -> OpenAPIGenerator.Output {
  try OpenAPIGenerator(options: options).generate(document: Data(json.utf8), named: "test.json")
}

/// The contents of the generated file at `path`, without the header comment.
func source(_ output: OpenAPIGenerator.Output, _ path: String) -> String? {
  guard let file = output.files.first(where: { $0.path == path }) else { return nil }
  return file.contents.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
    .dropFirst(2).joined(separator: "\n")
}

/// A document with the given schemas and paths, in OpenAPI 3.1.
func document(schemas: String = "{}", paths: String = "{}") -> String {
  """
  {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
   "paths": \(paths), "components": {"schemas": \(schemas)}}
  """
}

/// Writes the generated `files` under `directory`; their paths.
func write(_ files: [OpenAPIGenerator.File], to directory: URL) throws -> [String] {
  try files.map { file in
    let url = directory.appending(path: file.path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(file.contents.utf8).write(to: url)
    return url.path
  }
}
