import EndpointOpenAPI
import Foundation
import Testing

/// `Generated/` holds what the generator writes for `Documents/pets.json` with
/// `Documents/pets-config.json` (which only configures the cursor pagination of
/// `listFeedings`); the test target compiles it, so these tests also prove that the generated
/// source builds. Generate it again with `swift run endpoint-openapi generate
/// Tests/EndpointOpenAPITests/Documents/pets.json --config
/// Tests/EndpointOpenAPITests/Documents/pets-config.json --output
/// Tests/EndpointOpenAPITests/Generated`.
@Suite struct ExpectedSourceTests {
  @Test func petsDocumentGeneratesTheCheckedInSource() throws {
    let documents = testDirectory.appending(path: "Documents")
    let options = try OpenAPIGenerator.Options(
      configuration: Data(contentsOf: documents.appending(path: "pets-config.json")))
    // The configuration sets the pagination and nothing else.
    var withoutPagination = options
    withoutPagination.pagination = nil
    #expect(withoutPagination == OpenAPIGenerator.Options())
    let document = try Data(contentsOf: documents.appending(path: "pets.json"))
    let output = try OpenAPIGenerator(options: options).generate(
      document: document, named: "pets.json")
    #expect(
      output.files.map(\.path) == [
        "Pets.swift", "Visits.swift", "API.swift", "Styles.swift", "Models/Animal.swift",
        "Models/Cat.swift", "Models/Dog.swift", "Models/EndpointSchema.swift",
        "Models/FeedingPage.swift", "Models/Label.swift", "Models/NewPet.swift",
        "Models/Node.swift", "Models/Pet.swift", "Models/PetUpdate.swift", "Models/Problem.swift",
        "Models/Reopening.swift", "Models/Size.swift", "Models/Status.swift",
        "Models/Timestamp.swift", "Models/Visit.swift", "Support/RFC3339.swift",
        "Support/CalendarDay.swift", "Support/Base64.swift",
      ])
    for file in output.files {
      let expected = try String(
        contentsOf: testDirectory.appending(path: "Generated/" + file.path), encoding: .utf8)
      #expect(file.contents == expected, "\(file.path) differs from Generated/\(file.path)")
    }
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1notes/post/requestBody/content: a request body in text/plain is not "
          + "supported yet (only JSON, form, multipart and binary are); the operation is skipped"
      ])
  }

  @Test func strictMakesTheFirstLeftOutConstructAnError() throws {
    let document = try Data(contentsOf: testDirectory.appending(path: "Documents/pets.json"))
    let generator = OpenAPIGenerator(options: .init(strict: true))
    let error = #expect(throws: OpenAPIGenerator.Failure.self) {
      try generator.generate(document: document, named: "pets.json")
    }
    #expect(error?.kind == .unsupportedConstruct)
    #expect(error?.pointer == "#/paths/~1notes/post/requestBody/content")
  }
}
