import EndpointTestSupport
import Foundation
import Testing

/// The `endpoint-openapi` command, run as a user runs it.
@Suite struct CommandTests {
  /// The built command, beside the test executable.
  static var command: URL? {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return [
      executable.deletingLastPathComponent(),
      executable.deletingLastPathComponent().deletingLastPathComponent(),
    ].map { $0.appending(path: "endpoint-openapi") }.first {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }
  }

  func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
    let command: URL = try #require(Self.command, "endpoint-openapi is not built")
    let result = try await runChildProcess(command.path, arguments)
    return (result.status, result.output)
  }

  @Test func withoutArgumentsItPrintsItsUsage() async throws {
    let (status, output) = try await run([])
    #expect(status == 2)
    #expect(output.contains("usage: endpoint-openapi generate DOCUMENT --output DIR"))
    #expect(output.contains("in JSON or YAML"))
  }

  @Test func badInputIsAnErrorThatSaysWhy() async throws {
    try await withTemporaryDirectory { directory in
      let missing = try await run([
        "generate", directory.appending(path: "nope.json").path, "-o", "x",
      ])
      #expect(missing.status == 1)
      #expect(missing.output.contains("cannot read the document"))
      let yaml = directory.appending(path: "api.yaml")
      try Data("openapi: 3.1.0\n- oops\n".utf8).write(to: yaml)
      let refused = try await run(["generate", yaml.path, "--output", directory.path])
      #expect(refused.status == 1)
      #expect(refused.output.contains("api.yaml, line 2, column"))
      let noOutput = try await run(["generate", yaml.path])
      #expect(noOutput.status == 2)
      #expect(noOutput.output.contains("no --output DIR given"))
    }
  }

  /// A Swagger 2.0 document shaped like Kubernetes's (dotted schema names, int-or-string, path
  /// parameters on the path, patches in several JSON media types), converted to OpenAPI 3.0 by
  /// the repository's converter script, then generated from.
  @Test func aSwagger2DocumentConvertedByTheScriptGenerates() async throws {
    let swagger = """
      {"swagger": "2.0", "info": {"title": "K", "version": "1"},
       "paths": {"/api/v1/namespaces/{namespace}/services/{name}": {
         "parameters": [
           {"name": "name", "in": "path", "required": true, "type": "string", "uniqueItems": true},
           {"name": "namespace", "in": "path", "required": true, "type": "string"},
           {"name": "pretty", "in": "query", "type": "string"}],
         "patch": {"operationId": "patchCoreV1NamespacedService", "tags": ["core_v1"],
           "consumes": ["application/json-patch+json", "application/merge-patch+json"],
           "produces": ["application/json", "application/yaml"],
           "parameters": [{"name": "body", "in": "body", "required": true,
             "schema": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch"}}],
           "responses": {"200": {"description": "OK",
             "schema": {"$ref": "#/definitions/io.k8s.api.core.v1.ServicePort"}},
             "401": {"description": "Unauthorized"}},
           "x-kubernetes-action": "patch"}}},
       "definitions": {
         "io.k8s.apimachinery.pkg.apis.meta.v1.Patch": {"description": "A patch."},
         "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"type": "string",
           "format": "int-or-string"},
         "io.k8s.api.core.v1.ServicePort": {"type": "object", "properties": {
           "targetPort": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString"}
         }}}}
      """
    try await withTemporaryDirectory { directory in
      let script = testDirectory.appending(path: "../../scripts/swagger2-to-openapi3.py")
        .standardized
      let input = directory.appending(path: "swagger.json")
      let converted = directory.appending(path: "openapi.json")
      try Data(swagger.utf8).write(to: input)
      let conversion = try await runChildProcess(
        "python3", [script.path, input.path, converted.path])
      #expect(conversion.status == 0, "\(conversion.output)")
      let output = directory.appending(path: "Sources")
      let (status, printed) = try await run(["generate", converted.path, "--output", output.path])
      #expect(status == 0)
      #expect(!printed.contains("warning:"), "\(printed)")
      let namespace = try String(
        contentsOf: output.appending(path: "CoreV1.swift"), encoding: .utf8)
      #expect(namespace.contains("static func patchCoreV1NamespacedService("))
      #expect(namespace.contains("body: IoK8sApimachineryPkgApisMetaV1Patch,"))
      #expect(
        namespace.contains("headerFields[\"Content-Type\"] = \"application/json-patch+json\""))
      #expect(namespace.contains("path: \"api/v1/namespaces/\\(namespace)/services/\\(name)\","))
      #expect(
        namespace.contains("queryItems.append(URLQueryItem(name: \"pretty\", value: pretty))"))
      let port = try String(
        contentsOf: output.appending(path: "Models/IoK8sApiCoreV1ServicePort.swift"),
        encoding: .utf8)
      #expect(port.contains("var targetPort: IoK8sApimachineryPkgUtilIntstrIntOrString?"))

      // What OpenAPI 3.0 cannot say is an error naming where it is, and nothing is written.
      let tsv = swagger.replacingOccurrences(
        of: #""name": "pretty", "in": "query", "type": "string""#,
        with: #""name": "pretty", "in": "query", "type": "array", "items": {"type": "string"}, "#
          + #""collectionFormat": "tsv""#)
      try Data(tsv.utf8).write(to: input)
      try FileManager.default.removeItem(at: converted)
      let refused = try await runChildProcess(
        "python3", [script.path, input.path, converted.path])
      #expect(refused.status == 1)
      #expect(
        refused.output.contains(
          "cannot convert #/paths/~1api~1v1~1namespaces~1{namespace}~1services~1{name}/"
            + "parameters/2/collectionFormat: collectionFormat tsv in query has no OpenAPI 3.0 "
            + "style"))
      #expect(!FileManager.default.fileExists(atPath: converted.path))
    }
  }

  @Test func itWritesTheFilesAndRemovesOnlyTheStaleGeneratedOnes() async throws {
    let document = testDirectory.appending(path: "Documents/pets.json")
    try await withTemporaryDirectory { directory in
      let fileManager = FileManager.default
      try Data("// mine\n".utf8).write(to: directory.appending(path: "Mine.swift"))
      try Data("// Generated by endpoint-openapi from old.json.\n".utf8)
        .write(to: directory.appending(path: "Old.swift"))
      let (status, output) = try await run(["generate", document.path, "--output", directory.path])
      #expect(status == 0)
      #expect(output.contains("warning: #/paths/~1notes/post/requestBody/content"))
      #expect(output.contains("wrote 23 files"))
      #expect(output.contains("removed 1 stale"))
      let written = try fileManager.contentsOfDirectory(atPath: directory.path).sorted()
      #expect(
        written == [
          "API.swift", "Mine.swift", "Models", "Pets.swift", "Styles.swift", "Support",
          "Visits.swift",
        ])
      let pets = try String(contentsOf: directory.appending(path: "Pets.swift"), encoding: .utf8)
      let expected = try String(
        contentsOf: testDirectory.appending(path: "Generated/Pets.swift"), encoding: .utf8)
      #expect(pets == expected)
      // A second run changes nothing on disk, so a build recompiles nothing.
      let petsPath = directory.appending(path: "Pets.swift").path
      let before = try fileManager.attributesOfItem(atPath: petsPath)[.modificationDate] as? Date
      #expect(try await run(["generate", document.path, "--output", directory.path]).status == 0)
      let after = try fileManager.attributesOfItem(atPath: petsPath)[.modificationDate] as? Date
      #expect(before != nil && before == after)
    }
  }

  @Test func aConfigurationBesideTheDocumentIsRead() async throws {
    try await withTemporaryDirectory { directory in
      let document = directory.appending(path: "pets.json")
      try FileManager.default.copyItem(
        at: testDirectory.appending(path: "Documents/pets.json"), to: document)
      try Data(#"{"tags": ["pets"], "namespacePrefix": "Store"}"#.utf8)
        .write(to: directory.appending(path: "endpoint-openapi.json"))
      let output = directory.appending(path: "Out")
      let result = try await run(["generate", document.path, "--output", output.path, "--strict"])
      #expect(result.status == 1)
      #expect(result.output.contains("(--strict)"))
      _ = try await run(["generate", document.path, "--output", output.path])
      let written = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
      #expect(written == ["Models", "StorePets.swift", "Support"])
    }
  }
}
