import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-endpoints ...`: runs
/// endpoint-openapi on demand, so the generated source is checked in.
///
/// With `--target NAME` (repeatable) it reads the target's `openapi.yaml`, `openapi.yml` or
/// `openapi.json` (and `endpoint-openapi.json` beside it) and writes into the target's
/// `Generated` folder, or the `--output` given; every other argument goes to
/// `endpoint-openapi generate` as it is. Without `--target`, the arguments are those of
/// `endpoint-openapi generate`: `generate-endpoints api.yaml --output Sources/App/API`.
@main
struct EndpointOpenAPICommand: CommandPlugin {
  static let documentNames = ["openapi.yaml", "openapi.yml", "openapi.json"]

  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let tool = try context.tool(named: "endpoint-openapi").url
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    var rest = extractor.remainingArguments
    if rest.first == "generate" { rest.removeFirst() }
    guard !targetNames.isEmpty else {
      try run(tool, ["generate"] + rest, in: context.package.directoryURL)
      return
    }
    let hasOutput = rest.contains("--output") || rest.contains("-o")
    for target in try context.package.targets(named: targetNames) {
      guard let directory = (target as? SwiftSourceModuleTarget)?.directoryURL else {
        throw CommandFailure("generate-endpoints: \(target.name) is not a Swift target")
      }
      let document = Self.documentNames.map { directory.appending(path: $0) }.first {
        FileManager.default.fileExists(atPath: $0.path)
      }
      guard let document else {
        throw CommandFailure(
          "generate-endpoints: target \(target.name) has no "
            + Self.documentNames.joined(separator: ", ") + " in \(directory.path)")
      }
      let output = hasOutput ? [] : ["--output", directory.appending(path: "Generated").path]
      try run(tool, ["generate", document.path] + output + rest, in: context.package.directoryURL)
    }
  }

  /// Runs the tool with the package's directory as the working directory, so relative paths
  /// are the package's; its output goes to the user's terminal.
  func run(_ tool: URL, _ arguments: [String], in directory: URL) throws {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.currentDirectoryURL = directory
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CommandFailure(
        "generate-endpoints: endpoint-openapi exited with status \(process.terminationStatus)")
    }
  }
}

/// Why the command stopped, printed by SwiftPM.
struct CommandFailure: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
