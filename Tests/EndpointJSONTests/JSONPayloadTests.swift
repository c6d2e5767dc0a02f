import EndpointJSON
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct JSONPayloadTests {
  @Test func encodesValueAsApplicationJSON() throws {
    let payload = try RequestPayload.json(NewTodo(title: "Write docs", dueDate: nil))
    #expect(payload.contentType == "application/json")
    #expect(text(payload.body) == #"{"title":"Write docs"}"#)
  }

  @Test func payloadRoundTripsThroughDecoder() throws {
    let todo = Todo(id: 7, title: "Ship \"it\" ✓", done: true)
    let payload = try RequestPayload.json(todo)
    let data = try #require(payload.body?.data)
    #expect(try JSONDecoder().decode(Todo.self, from: data) == todo)
  }

  @Test func defaultEncoderSortsKeysSoBytesAreStable() throws {
    let body: [String: Int] = ["zeta": 1, "alpha": 2, "mid": 3, "beta": 4]
    let payload = try RequestPayload.json(body)
    #expect(text(payload.body) == #"{"alpha":2,"beta":4,"mid":3,"zeta":1}"#)
  }

  @Test func customEncoderIsUsed() throws {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let payload = try RequestPayload.json(
      NewTodo(title: "a", dueDate: "2025-01-01"),
      encoder: encoder
    )
    let json = try #require(text(payload.body))
    #expect(json.contains(#""due_date":"2025-01-01""#))
    #expect(!json.contains("dueDate"))
  }

  @Test func nonFiniteNumberThrowsEncodingFailureNamingTypeAndPath() {
    let reading = Reading(sensor: "t1", values: [1, 2, .nan])
    let error = #expect(throws: EncodingFailure.self) {
      try RequestPayload.json(reading)
    }
    #expect(error?.type == "Reading")
    #expect(error?.path == "values[2]")
    #expect(error?.reason.contains("nan") == true)
    #expect(error?.description.contains("Could not encode Reading as JSON at values[2]") == true)
  }

  @Test func errorFromCustomEncodeIsWrappedNotCrashing() {
    let error = #expect(throws: EncodingFailure.self) {
      try RequestPayload.json(Unencodable())
    }
    #expect(error?.type == "Unencodable")
    #expect(error?.underlyingError is Unencodable.Refused)
  }
}
