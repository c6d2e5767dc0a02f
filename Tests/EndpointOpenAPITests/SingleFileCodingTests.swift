import EndpointTestSupport
import Foundation
import Testing

/// Date-times are coded by one `RFC3339` wrapper written once per output, so one file may hold
/// several structs with date-times: a `--single-file` output declares it once and compiles.
@Suite struct SingleFileCodingTests {
  static let document = """
    {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {},
     "components": {"schemas": {
       "Event": {"type": "object", "required": ["at", "gone"], "properties": {
         "at": {"type": "string", "format": "date-time"},
         "gone": {"type": ["string", "null"], "format": "date-time"},
         "moves": {"type": "array", "items": {"type": "string", "format": "date-time"}},
         "place": {"type": "object", "properties": {
           "since": {"type": ["string", "null"], "format": "date-time"},
           "by": {"type": "object", "additionalProperties": {
             "type": "string", "format": "date-time"}}}}}},
       "Visit": {"type": "object", "properties": {
         "at": {"type": "string", "format": "date-time"}}}}}}
    """

  @Test(arguments: ["public", "internal"])
  func structsWithDateTimesShareOneWrapperInOneFile(access: String) async throws {
    let modules = try #require(TypeCheckTests.modules, "no EndpointJSON.swiftmodule")
    try await withTemporaryDirectory { directory in
      let document = directory.appending(path: "dates.json")
      try Data(Self.document.utf8).write(to: document)
      let configuration = directory.appending(path: "config.json")
      try Data(#"{"accessLevel": "\#(access)"}"#.utf8).write(to: configuration)
      let (status, output) = try await CommandTests().run([
        "generate", document.path, "--output", directory.path, "--single-file", "All.swift",
        "--config", configuration.path,
      ])
      #expect(status == 0, "\(output)")
      let file = directory.appending(path: "All.swift")
      let source = try String(contentsOf: file, encoding: .utf8)
      #expect(source.components(separatedBy: "struct RFC3339<").count == 2)
      #expect(source.contains("// MARK: - Support/RFC3339.swift\n"))
      #expect(source.contains("@RFC3339 \(access == "public" ? "public " : "")var moves: [Date]?"))
      #expect(source.contains("var by: [String: Date]?"))
      let (checked, diagnostics) = try await TypeCheckTests.typeCheck(
        [file.path], modules: modules, in: directory)
      #expect(checked == 0, "swiftc: \(diagnostics)")
    }
  }
}
