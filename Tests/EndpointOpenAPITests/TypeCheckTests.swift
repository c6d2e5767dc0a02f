import EndpointOpenAPI
import EndpointTestSupport
import Foundation
import Testing

/// Generated source type-checked by `swiftc` against the built EndpointCore and EndpointJSON,
/// as an app's build would compile it.
@Suite struct TypeCheckTests {
  /// The directory of the built modules: beside the test executable, or the package's
  /// `.build/debug/Modules`.
  static var modules: URL? {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let candidates = [
      executable.deletingLastPathComponent().appending(path: "Modules"),
      executable.deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Modules"),
      testDirectory.appending(path: "../../.build/debug/Modules").standardized,
    ]
    return candidates.first {
      FileManager.default.fileExists(atPath: $0.appending(path: "EndpointJSON.swiftmodule").path)
    }
  }

  @Test(arguments: [OpenAPIGenerator.AccessLevel.public, .internal])
  func generatedSourceTypeChecks(access: OpenAPIGenerator.AccessLevel) async throws {
    let modules = try #require(Self.modules, "no EndpointJSON.swiftmodule next to the tests")
    let document = try Data(contentsOf: testDirectory.appending(path: "Documents/pets.json"))
    let options = OpenAPIGenerator.Options(namespacePrefix: "Store", accessLevel: access)
    let output = try OpenAPIGenerator(options: options).generate(
      document: document, named: "pets.json")
    try await withTemporaryDirectory { directory in
      let paths = try write(output.files, to: directory)
      let (status, diagnostics) = try await Self.typeCheck(paths, modules: modules, in: directory)
      #expect(status == 0, "swiftc: \(diagnostics)")
    }
  }

  /// Expects `files` to type-check as one module against the built modules, in a temporary
  /// directory removed afterwards.
  static func expectTypeChecks(_ files: [OpenAPIGenerator.File]) async throws {
    let modules = try #require(modules, "no EndpointJSON.swiftmodule next to the tests")
    try await withTemporaryDirectory { directory in
      let paths = try write(files, to: directory)
      let (status, diagnostics) = try await typeCheck(paths, modules: modules, in: directory)
      #expect(status == 0, "swiftc: \(diagnostics)")
    }
  }

  /// Runs `swiftc -typecheck` on `paths` as one module against the built modules, its
  /// temporary files in `directory`; the exit status and what it printed.
  static func typeCheck(_ paths: [String], modules: URL, in directory: URL) async throws -> (
    Int32, String
  ) {
    try await swiftc(
      ["-typecheck", "-module-name", "Generated", "-I", modules.path] + paths, in: directory)
  }

  /// Runs `swiftc` in Swift 6 mode, warnings as errors, with `arguments`, its temporary files
  /// in `directory`; the exit status and what it printed.
  static func swiftc(_ arguments: [String], in directory: URL) async throws -> (Int32, String) {
    // The driver's own temporary files go inside the directory the caller removes.
    let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": directory.path]) {
      _, new in new
    }
    let result = try await runChildProcess(
      "swiftc", ["-swift-version", "6", "-parse-as-library", "-warnings-as-errors"] + arguments,
      environment: environment)
    return (result.status, result.output)
  }
}
