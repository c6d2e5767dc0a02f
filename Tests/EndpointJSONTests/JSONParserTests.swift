import EndpointJSON
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct JSONParserTests {
  let listJSON = """
    {"items":[{"id":1,"title":"a","done":false},{"id":2,"title":"b","done":true}],"total":2}
    """

  @Test func asksForApplicationJSON() {
    #expect(ResponseParser<Todo>.json().accept == "application/json")
    #expect(ResponseParser<Void>.json().accept == "application/json")
  }

  @Test func decodesValidBody() throws {
    let list = try ResponseParser<TodoList>.json().parse(ok(), bytes(listJSON))
    #expect(list.total == 2)
    #expect(list.items.map(\.title) == ["a", "b"])
  }

  @Test func usesCustomDecoder() throws {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let parser = ResponseParser<NewTodo>.json(decoder: decoder)
    let todo = try parser.parse(ok(), bytes(#"{"title":"x","due_date":"2025-02-03"}"#))
    #expect(todo.dueDate == "2025-02-03")
  }

  @Test func expectingSetsAcceptedStatus() {
    let parser = ResponseParser<Todo>.json(expecting: .codes(201))
    #expect(parser.acceptedStatus.contains(201))
    #expect(!parser.acceptedStatus.contains(200))
  }

  @Test func missingKeyNamesNestedPath() throws {
    let body = bytes(
      #"{"items":[{"id":1,"title":"a","done":false},{"id":2,"title":"b","done":true},"#
        + #"{"title":"c","done":false}],"total":3}"#
    )
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<TodoList>.json().parse(ok(), body)
    }
    #expect(error.type == "TodoList")
    #expect(error.path == "items[2].id")
    #expect(error.reason == #"key not found: "id""#)
    #expect(error.body == body)
    #expect(error.description.hasPrefix(#"Could not parse TodoList at items[2].id: key not found"#))
  }

  @Test func typeMismatchNamesExpectedTypeAndWhatWasFound() throws {
    let body = bytes(#"{"items":[{"id":"one","title":"a","done":false}],"total":1}"#)
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<TodoList>.json().parse(ok(), body)
    }
    #expect(error.path == "items[0].id")
    #expect(error.reason == "type mismatch: expected Int, found a string")
  }

  @Test func nullForRequiredValueIsValueNotFound() throws {
    let body = bytes(#"{"items":[{"id":1,"title":null,"done":false}],"total":1}"#)
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<TodoList>.json().parse(ok(), body)
    }
    #expect(error.path == "items[0].title")
    #expect(error.reason == "value not found: expected String, found null")
  }

  @Test func invalidJSONIsCorruptedData() throws {
    let body = bytes("{not json")
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<Todo>.json().parse(ok(), body)
    }
    #expect(error.path == nil)
    #expect(error.reason.hasPrefix("corrupted data:"))
    #expect(error.description.contains("{not json"))
  }

  @Test func keysThatAreNotNamesAreQuotedInPath() throws {
    let body = bytes(#"{"first name":"x"}"#)
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<[String: Int]>.json().parse(ok(), body)
    }
    #expect(error.path == #"["first name"]"#)
  }

  @Test func dictionaryKeyThatLooksLikeANumberIsNotAnIndex() throws {
    let body = bytes(#"{"scores":{"7":"high"}}"#)
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<[String: [String: Int]]>.json().parse(ok(), body)
    }
    #expect(error.path == #"scores["7"]"#)
  }

  @Test func errorDescriptionShowsBoundedBodySnippet() throws {
    let filler = String(repeating: "x", count: 5_000)
    let body = bytes(#"{"id":"not a number","title":"\#(filler)","done":true}"#)
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<Todo>.json().parse(ok(), body)
    }
    let description = error.description
    #expect(description.contains(#"{"id":"not a number""#))
    #expect(description.contains("more bytes"))
    #expect(description.utf8.count < 1_000)
    #expect(error.body.count == body.count)
  }

  @Test func emptyBodyForRequiredValueSaysSo() throws {
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<Todo>.json().parse(ok(), Data())
    }
    #expect(error.reason == "the body is empty; expected JSON")
  }

  @Test func optionalDecodesEmptyBodyToNil() throws {
    let parser = ResponseParser<Todo?>.json()
    #expect(try parser.parse(ok(), Data()) == nil)
    #expect(try parser.parse(ok(), bytes(" \n")) == nil)
  }

  @Test func optionalDecodes204ToNilWhateverTheBody() throws {
    let parser = ResponseParser<Todo?>.json()
    #expect(try parser.parse(ok(204), bytes("stray")) == nil)
  }

  @Test func optionalDecodesNullToNilAndValueToValue() throws {
    let parser = ResponseParser<Todo?>.json()
    #expect(try parser.parse(ok(), bytes("null")) == nil)
    let todo = try parser.parse(ok(), bytes(#"{"id":3,"title":"t","done":false}"#))
    #expect(todo == Todo(id: 3, title: "t", done: false))
  }

  @Test func optionalStillFailsOnInvalidBody() throws {
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<Todo?>.json().parse(ok(), bytes(#"{"id":3}"#))
    }
    #expect(error.path == "title")
  }

  @Test func topLevelArrayPathStartsWithIndex() throws {
    let body = bytes(#"[{"id":1,"title":"a","done":false},{"id":2,"title":"b","done":"no"}]"#)
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<[Todo]>.json().parse(ok(), body)
    }
    #expect(error.type == "Array<Todo>")
    #expect(error.path == "[1].done")
  }

  @Test func nonOptional204WithEmptyBodyFailsClearly() throws {
    let error = try #require(throws: ParsingFailure.self) {
      try ResponseParser<Todo>.json().parse(ok(204), Data())
    }
    #expect(error.type == "Todo")
    #expect(error.reason == "the body is empty; expected JSON")
  }

  @Test func voidIgnoresBody() throws {
    let parser = ResponseParser<Void>.json()
    try parser.parse(ok(), bytes("<html>not json</html>"))
    try parser.parse(ok(204), Data())
  }
}
