import EndpointTestSupport
import Foundation
import Testing

/// The coding written by hand for date-times is private to each struct, so one file may hold
/// several such structs: `--single-file` and two documents' output in one module compile.
@Suite struct SingleFileCodingTests {
  static let document = """
    {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {},
     "components": {"schemas": {
       "Event": {"type": "object", "required": ["at"], "properties": {
         "at": {"type": "string", "format": "date-time"},
         "place": {"type": "object", "properties": {
           "since": {"type": ["string", "null"], "format": "date-time"}}}}},
       "Visit": {"type": "object", "properties": {
         "at": {"type": "string", "format": "date-time"}}}}}}
    """

  @Test func structsWithDateTimesShareOneFile() throws {
    let modules = try #require(TypeCheckTests.modules, "no EndpointJSON.swiftmodule")
    try withTemporaryDirectory { directory in
      let document = directory.appending(path: "dates.json")
      try Data(Self.document.utf8).write(to: document)
      let (status, output) = try CommandTests().run([
        "generate", document.path, "--output", directory.path, "--single-file", "All.swift",
      ])
      #expect(status == 0, "\(output)")
      let file = directory.appending(path: "All.swift")
      let source = try String(contentsOf: file, encoding: .utf8)
      #expect(source.components(separatedBy: "private static func rfc3339Text").count == 4)
      let (checked, diagnostics) = try TypeCheckTests.typeCheck(
        [file.path], modules: modules, in: directory)
      #expect(checked == 0, "swiftc: \(diagnostics)")
    }
  }
}
