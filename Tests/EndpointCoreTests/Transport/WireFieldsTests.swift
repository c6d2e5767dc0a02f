import EndpointKernel
import Testing

@testable import EndpointCore

/// The fields both transports put on the wire: values without the whitespace around them, so a
/// request is the same over HTTP/1.1 and HTTP/2 (which refuses such a value).
@Suite struct WireFieldsTests {
  private func sent(_ pairs: [(String, String)]) throws -> [String] {
    var fields = HTTPFields()
    for (name, value) in pairs { try fields.append(value, for: name) }
    var lines: [String] = []
    WireFields.forEach(in: fields) { name, value in lines.append("\(name): \(value)") }
    return lines
  }

  @Test(arguments: [
    (" v", "v"), ("v\t", "v"), (" \t v \t ", "v"), ("a  b", "a  b"), (" a\tb ", "a\tb"),
    ("", ""), ("   ", ""), ("\t", ""), ("v", "v"), (" caf\u{e9} ", "caf\u{e9}"),
  ])
  func whitespaceAroundAValueIsNotSent(value: String, expected: String) throws {
    #expect(WireFields.trimmed(value) == expected)
    #expect(try sent([("X-Value", value)]).first == "X-Value: \(expected)")
  }

  @Test func eachRepeatedValueIsTrimmedBeforeTheyAreJoined() throws {
    let lines = try sent([
      ("X-Many", " a"), ("x-many", "b\t"), ("Cookie", "s=1 "), ("cookie", " t=2"),
      ("X-Last", "a"), ("X-Last", " "),
    ])
    #expect(lines.contains("X-Many: a, b"))
    #expect(lines.contains("Cookie: s=1; t=2"))
    // An empty last value leaves no space at the end of the joined one.
    #expect(lines.contains("X-Last: a,"))
  }
}
