import EndpointPrimitives
import Foundation
import Testing

@testable import EndpointCore

/// The JSON string writer that `JSONValue`'s description and the fixture files share.
@Suite struct JSONStringLiteralTests {
  @Test func quotesAndEscapesTheCharactersJSONRequires() {
    #expect(JSONStringLiteral.quoted("") == #""""#)
    #expect(JSONStringLiteral.quoted("plain text") == #""plain text""#)
    #expect(JSONStringLiteral.quoted(#"a "b" \c"#) == #""a \"b\" \\c""#)
    #expect(JSONStringLiteral.quoted("1\n2\r3\t4\u{08}5\u{0C}6") == #""1\n2\r3\t4\b5\f6""#)
    #expect(JSONStringLiteral.quoted("\u{00}\u{1F}\u{7F}") == "\"\\u0000\\u001f\u{7F}\"")
    #expect(JSONStringLiteral.quoted("\u{2028}\u{2029}") == #""\u2028\u2029""#)
    #expect(JSONStringLiteral.quoted("é✓🙂") == "\"é✓🙂\"")
    #expect(JSONStringLiteral.quoted("/") == #""/""#)
  }

  @Test func appendAddsToWhatIsThere() {
    var output = "["
    JSONStringLiteral.append("x\"", to: &output)
    output += "]"
    #expect(output == #"["x\""]"#)
  }

  /// Every character a JSON parser reads back as itself, from each control character to a
  /// character outside the Basic Multilingual Plane.
  @Test func aJSONParserReadsEveryCharacterBack() throws {
    var scalars = (0..<0x80).compactMap(Unicode.Scalar.init)
    scalars += ["\u{2028}", "\u{2029}", "\u{FEFF}", "é", "🙂"].flatMap(\.unicodeScalars)
    for scalar in scalars {
      let text = "<" + String(Character(scalar)) + ">"
      let json = "[" + JSONStringLiteral.quoted(text) + "]"
      let decoded = try JSONDecoder().decode([String].self, from: Data(json.utf8))
      #expect(decoded == [text], "U+\(String(scalar.value, radix: 16))")
    }
  }
}
