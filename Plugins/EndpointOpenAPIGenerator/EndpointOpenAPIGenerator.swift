import Foundation
import PackagePlugin

/// Generates a target's endpoints and models at build time from the OpenAPI document in its
/// directory (`openapi.yaml`, `openapi.yml` or `openapi.json`), configured by
/// `endpoint-openapi.json` beside it when there is one.
///
/// Everything goes into one file, `GeneratedEndpoints.swift`, in the plugin's work directory:
/// a build command names its outputs before the document is read.
@main
struct EndpointOpenAPIGenerator: BuildToolPlugin {
  /// The document names looked for in the target's directory, in this order.
  static let documentNames = ["openapi.yaml", "openapi.yml", "openapi.json"]

  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SwiftSourceModuleTarget else { return [] }
    let files = target.sourceFiles.map(\.url)
    let document = Self.documentNames.lazy.compactMap { name in
      files.first { $0.lastPathComponent == name }
    }.first
    guard let document else {
      throw PluginFailure(
        "EndpointOpenAPIGenerator: target \(target.name) has no "
          + Self.documentNames.joined(separator: ", ") + " in \(target.directoryURL.path)")
    }
    let configuration = files.first { $0.lastPathComponent == "endpoint-openapi.json" }
    let directory = context.pluginWorkDirectoryURL
    let output = directory.appending(path: "GeneratedEndpoints.swift")
    var arguments = [
      "generate", document.path, "--output", directory.path,
      "--single-file", output.lastPathComponent,
    ]
    if let configuration { arguments += ["--config", configuration.path] }
    return [
      .buildCommand(
        displayName: "Generating endpoints from \(document.lastPathComponent)",
        executable: try context.tool(named: "endpoint-openapi").url,
        arguments: arguments,
        inputFiles: [document] + (configuration.map { [$0] } ?? []),
        outputFiles: [output]
      )
    ]
  }
}

/// Why the plugin stopped, printed by SwiftPM.
struct PluginFailure: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
