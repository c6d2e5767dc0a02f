import EndpointOpenAPI
import Foundation
import Testing

@Suite struct ReservedNameTests {
  /// Every public top-level type of the runtime modules, as API/public-api.txt lists them, is
  /// a name generated code never declares: a new SDK type must join the generator's list.
  @Test func noSchemaIsNamedLikeAPublicTypeOfTheSDK() throws {
    let listing = try String(
      contentsOf: testDirectory.appending(path: "../../API/public-api.txt").standardized,
      encoding: .utf8)
    let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
    let names = Set(
      listing.split(separator: "\n").compactMap { line -> String? in
        let fields = line.split(whereSeparator: \.isWhitespace)
        guard fields.count > 2, kinds.contains(fields[1]), !fields[2].contains(".") else {
          return nil
        }
        return String(fields[2])
      })
    #expect(names.count > 50)
    let schemas = names.sorted().map { #""\#($0)": {"type": "string"}"# }
    let output = try generate(document(schemas: "{" + schemas.joined(separator: ", ") + "}"))
    #expect(output.files.map(\.path) == names.sorted().map { "Models/\($0)Schema.swift" })
  }

  /// The calendar day's type is a name no schema takes, whether or not a day is used.
  @Test func noSchemaIsNamedLikeTheCalendarDay() throws {
    let output = try generate(
      document(
        schemas: """
          {"CalendarDay": {"type": "object", "properties": {
             "on": {"type": "string", "format": "date"}}}}
          """))
    #expect(
      output.files.map(\.path) == ["Models/CalendarDaySchema.swift", "Support/CalendarDay.swift"])
    #expect(
      source(output, "Models/CalendarDaySchema.swift")?.contains("var on: CalendarDay?") == true)
  }

  /// The date-time wrapper and its protocol, which an output with a date-time declares, are
  /// names no schema takes, with or without date-times.
  @Test func noSchemaIsNamedLikeTheDateTimeWrapper() throws {
    let output = try generate(
      document(
        schemas: """
          {"RFC3339": {"type": "object", "properties": {
             "at": {"type": "string", "format": "date-time"}}},
           "RFC3339Value": {"type": "string"}}
          """))
    #expect(
      output.files.map(\.path) == [
        "Models/RFC3339Schema.swift", "Models/RFC3339ValueSchema.swift", "Support/RFC3339.swift",
      ])
    #expect(
      source(output, "Models/RFC3339Schema.swift")?.contains("@RFC3339 var at: Date? = nil") == true
    )
  }

  /// The base64 wrapper and its protocol, which an output with base64 bytes declares, are
  /// names no schema takes, with or without base64.
  @Test func noSchemaIsNamedLikeTheBase64Wrapper() throws {
    let output = try generate(
      document(
        schemas: """
          {"Base64": {"type": "object", "properties": {
             "seal": {"type": "string", "format": "byte"}}},
           "Base64Value": {"type": "string"}}
          """))
    #expect(
      output.files.map(\.path) == [
        "Models/Base64Schema.swift", "Models/Base64ValueSchema.swift", "Support/Base64.swift",
      ])
    #expect(
      source(output, "Models/Base64Schema.swift")?.contains("@Base64 var seal: Data? = nil") == true
    )
  }
}
