import EndpointOpenAPI
import EndpointTestSupport
import Foundation
import Testing

/// `modelsModule`: the models in a module of their own, which the endpoints' module imports.
///
/// `Documents/Modules/` holds what the generator writes for `Documents/pets.json` with
/// `Documents/modules-config.json`: `Pets/` the endpoints, `PetsModels/` the models module. It
/// is under `Documents/`, which the test target does not compile: its files make two modules.
/// Generate it again with `swift run endpoint-openapi generate
/// Tests/EndpointOpenAPITests/Documents/pets.json --config
/// Tests/EndpointOpenAPITests/Documents/modules-config.json --output
/// Tests/EndpointOpenAPITests/Documents/Modules/Pets`.
@Suite struct ModelsModuleTests {
  static let documents = testDirectory.appending(path: "Documents")

  static func output() throws -> OpenAPIGenerator.Output {
    let options = try OpenAPIGenerator.Options(
      configuration: Data(contentsOf: documents.appending(path: "modules-config.json")))
    #expect(options.modelsModule == "PetsModels")
    #expect(options.modelsOutput == nil)
    return try OpenAPIGenerator(options: options).generate(
      document: Data(contentsOf: documents.appending(path: "pets.json")), named: "pets.json")
  }

  @Test func petsDocumentGeneratesTheCheckedInModules() throws {
    let output = try Self.output()
    #expect(
      output.files.map(\.path) == ["Pets.swift", "Visits.swift", "API.swift", "Styles.swift"])
    #expect(
      output.models.map(\.path) == [
        "Animal.swift", "Cat.swift", "Dog.swift", "EndpointSchema.swift", "FeedingPage.swift",
        "Label.swift", "NewPet.swift", "Node.swift", "Pet.swift", "PetUpdate.swift",
        "Problem.swift",
        "Reopening.swift", "Size.swift", "Status.swift", "Timestamp.swift", "Visit.swift",
        "Support/RFC3339.swift", "Support/CalendarDay.swift", "Support/Base64.swift",
      ])
    let files =
      output.files.map { ($0, "Modules/Pets/" + $0.path) }
      + output.models.map { ($0, "Modules/PetsModels/" + $0.path) }
    for (file, path) in files {
      let expected = try String(
        contentsOf: Self.documents.appending(path: path), encoding: .utf8)
      #expect(file.contents == expected, "\(file.path) differs from Documents/\(path)")
    }
    // The endpoints import the models; the models, public, have public initialisers.
    for file in output.files {
      #expect(file.contents.contains("\nimport EndpointJSON\nimport PetsModels\n"))
    }
    let newPet = try #require(output.models.first { $0.path == "NewPet.swift" })
    #expect(newPet.contents.contains("public struct NewPet: Codable, Sendable, Hashable {"))
    #expect(
      newPet.contents.contains(
        "  public init(birthDate: CalendarDay? = nil, name: String, tag: String? = nil) {"))
    // The endpoints keep the access level of the options: internal by default.
    let pets = try #require(output.files.first { $0.path == "Pets.swift" })
    #expect(pets.contents.contains("\nenum Pets {"))
  }

  @Test func withoutTheOptionTheModelsStayBesideTheEndpoints() throws {
    let document = try Data(contentsOf: Self.documents.appending(path: "pets.json"))
    let output = try OpenAPIGenerator().generate(document: document, named: "pets.json")
    #expect(output.models.isEmpty)
    #expect(output.files.contains { $0.path == "Models/NewPet.swift" })
    #expect(
      output.files.suffix(3).map(\.path) == [
        "Support/RFC3339.swift", "Support/CalendarDay.swift", "Support/Base64.swift",
      ])
    #expect(!output.files.contains { $0.contents.contains("import PetsModels") })
  }

  @Test func theStubsImportTheModelsModule() throws {
    let document = try Data(contentsOf: Self.documents.appending(path: "pets.json"))
    let options = OpenAPIGenerator.Options(stubs: "Stubs", modelsModule: "PetsModels")
    let output = try OpenAPIGenerator(options: options).generate(
      document: document, named: "pets.json")
    #expect(!output.stubs.isEmpty)
    for stub in output.stubs {
      #expect(stub.contents.contains("\nimport EndpointTesting\nimport PetsModels\n"))
    }
  }

  @Test func aSchemaOrNamespaceNamedLikeTheModuleIsRenamed() throws {
    let paths =
      #"{"/x": {"get": {"tags": ["petsModels"], "operationId": "getX", "#
      + #""responses": {"204": {"description": "none"}}}}}"#
    let output = try generate(
      document(
        schemas: #"{"PetsModels": {"type": "object", "properties": {}}}"#, paths: paths),
      options: .init(modelsModule: "PetsModels"))
    #expect(output.models.map(\.path) == ["PetsModelsSchema.swift"])
    #expect(output.files.map(\.path) == ["PetsModelsAPI.swift"])
  }

  @Test func aBadModuleNameOrAnOutputWithoutModuleIsRefused() throws {
    for (configuration, pointer) in [
      (#"{"modelsModule": "Pets Models"}"#, "#/modelsModule"),
      (#"{"modelsModule": "9Models"}"#, "#/modelsModule"),
      (#"{"modelsOutput": "Sources/Models"}"#, "#/modelsOutput"),
    ] {
      let error = #expect(throws: OpenAPIGenerator.Failure.self) {
        try OpenAPIGenerator.Options(configuration: Data(configuration.utf8))
      }
      #expect(error?.kind == .invalidConfiguration)
      #expect(error?.pointer == pointer, "\(configuration)")
    }
    let error = #expect(throws: OpenAPIGenerator.Failure.self) {
      try generate(document(), options: .init(modelsModule: "Pets-Models"))
    }
    #expect(error?.kind == .invalidConfiguration)
  }

  /// The models built as a library of their own, then the endpoints against it into a
  /// program that builds a request with a body of the models' module and decodes a response
  /// into one, linked with the built EndpointCore and EndpointJSON, and run.
  @Test func theEndpointsCallTheModelsOfTheirOwnModule() async throws {
    let modules = try #require(TypeCheckTests.modules, "no EndpointJSON.swiftmodule")
    // The object files of the runtime modules the generated code needs, beside the modules.
    let objects = try ["EndpointCore", "EndpointJSON", "EndpointPrimitives"].flatMap { module in
      let build = modules.deletingLastPathComponent().appending(path: "\(module).build")
      let files = try FileManager.default.contentsOfDirectory(atPath: build.path)
        .filter { $0.hasSuffix(".o") }.map { build.appending(path: $0).path }
      try #require(!files.isEmpty, "no object files of \(module)")
      return files
    }
    let output = try Self.output()
    try await withTemporaryDirectory { directory in
      let models = try write(output.models, to: directory.appending(path: "PetsModels"))
      let built = directory.appending(path: "Built")
      try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
      let (emitted, emitDiagnostics) = try await TypeCheckTests.swiftc(
        [
          "-module-name", "PetsModels", "-I", modules.path, "-emit-library", "-static",
          "-o", built.appending(path: "libPetsModels.a").path,
          "-emit-module", "-emit-module-path", built.appending(path: "PetsModels.swiftmodule").path,
        ] + models, in: directory)
      #expect(emitted == 0, "swiftc: \(emitDiagnostics)")

      var endpoints = try write(output.files, to: directory.appending(path: "Pets"))
      let caller = directory.appending(path: "Caller.swift")
      try Data(
        #"""
        import EndpointCore
        import Foundation
        import PetsModels

        @main struct Caller {
          static func main() throws {
            let request = try Pets.createPet(body: NewPet(name: "Tom", tag: "cat")).request()
            let body = String(decoding: request.body?.data ?? Data(), as: UTF8.self)
            print(request.method, request.url, body)
            var pet = try Pets.showPet(petId: "7").parse(
              HTTPResponse(status: 200),
              Data(#"{"id": 7, "name": "Tom", "status": "available", "updated_at": "2026-01-02T03:04:05Z"}"#.utf8))
            pet.name = "Tim"
            print(pet.id, pet.name, pet.status.rawValue, pet.updatedAt?.timeIntervalSince1970 ?? 0)
          }
        }
        """#.utf8
      ).write(to: caller)
      endpoints.append(caller.path)
      let program = directory.appending(path: "pets")
      let (linked, diagnostics) = try await TypeCheckTests.swiftc(
        [
          "-module-name", "Pets", "-I", modules.path, "-I", built.path, "-L", built.path,
          "-lPetsModels", "-o", program.path,
        ] + endpoints + objects, in: directory)
      #expect(linked == 0, "swiftc: \(diagnostics)")
      guard linked == 0 else { return }

      let run = try await runChildProcess(program.path, [])
      let printed = run.output
      #expect(run.status == 0)
      #expect(
        printed.split(separator: "\n") == [
          #"POST pets {"name":"Tom","tag":"cat"}"#, "7 Tim available 1767323045.0",
        ])
    }
  }

  @Test func theCommandWritesBothDirectoriesAndRemovesStaleFilesFromEach() async throws {
    let document = Self.documents.appending(path: "pets.json").path
    try await withTemporaryDirectory { directory in
      let endpoints = directory.appending(path: "Sources/Pets")
      let models = directory.appending(path: "Sources/PetsModels")
      let command = CommandTests()
      // First the models beside the endpoints, then in a module of their own: the models that
      // were beside the endpoints are stale.
      #expect(
        try await command.run(["generate", document, "--output", endpoints.path]).status == 0)
      #expect(exists(endpoints.appending(path: "Models/NewPet.swift")))
      let (status, printed) = try await command.run([
        "generate", document, "--output", endpoints.path, "--models-module", "PetsModels",
      ])
      #expect(status == 0, "\(printed)")
      #expect(printed.contains("wrote 4 files to \(endpoints.path), 19 model files to "))
      #expect(printed.contains("removed 19 stale"))
      #expect(!exists(endpoints.appending(path: "Models")))
      #expect(exists(models.appending(path: "NewPet.swift")))
      #expect(exists(models.appending(path: "Support/RFC3339.swift")))

      // A generated file the document no longer makes goes; the user's own file stays.
      let stale = models.appending(path: "Old.swift")
      try Data("// Generated by endpoint-openapi from pets.json.\n".utf8).write(to: stale)
      let own = models.appending(path: "PetsModels+Extras.swift")
      try Data("// Mine.\n".utf8).write(to: own)
      let other = directory.appending(path: "Elsewhere")
      let (again, printedAgain) = try await command.run([
        "generate", document, "--output", endpoints.path, "--models-module", "PetsModels",
        "--models-output", other.path,
      ])
      #expect(again == 0, "\(printedAgain)")
      #expect(exists(other.appending(path: "NewPet.swift")))
      // The default directory is not the one written: its files are left alone.
      #expect(exists(stale))
      let (third, printedThird) = try await command.run([
        "generate", document, "-o", endpoints.path, "--models-module", "PetsModels",
      ])
      #expect(third == 0, "\(printedThird)")
      #expect(printedThird.contains("removed 1 stale"))
      #expect(!exists(stale))
      #expect(exists(own))
    }
  }

  @Test func theCommandRefusesWhatCannotMakeTwoModules() async throws {
    let document = Self.documents.appending(path: "pets.json").path
    try await withTemporaryDirectory { directory in
      let out = directory.appending(path: "Pets").path
      for (arguments, message) in [
        (
          ["--models-module", "PetsModels", "--single-file", "Endpoints.swift"],
          "--single-file writes one file, for one module"
        ),
        (["--models-module", "PetsModels", "--models-output", out], "a directory of its own"),
        (["--models-output", directory.path], "name it with --models-module"),
        (["--models-module", "Pets.Models"], "is not a module name"),
      ] {
        let (status, printed) = try await CommandTests().run(
          ["generate", document, "--output", out] + arguments)
        #expect(status == 1, "\(arguments)")
        #expect(printed.contains(message), "\(printed)")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
  }
}

/// Whether a file or directory is at `url`.
private func exists(_ url: URL) -> Bool {
  FileManager.default.fileExists(atPath: url.path)
}
