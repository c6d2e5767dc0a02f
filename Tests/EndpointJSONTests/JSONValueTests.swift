import EndpointJSON
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct JSONValueTests {
  let sample: JSONValue = [
    "name": "Ada",
    "age": 36,
    "score": 9.5,
    "admin": true,
    "manager": nil,
    "tags": ["math", 1843],
    "address": ["city": "London"],
  ]

  @Test func literalsOfEveryKindMakeTheMatchingCase() {
    #expect(sample["name"] == .string("Ada"))
    #expect(sample["age"] == .int(36))
    #expect(sample["score"] == .double(9.5))
    #expect(sample["admin"] == .bool(true))
    #expect(sample["manager"] == .null)
    #expect(sample["tags"] == .array([.string("math"), .int(1843)]))
    #expect(sample["address"] == .object(["city": .string("London")]))
  }

  @Test func subscriptsChainAndMissReturnNil() {
    #expect(sample["address"]?["city"]?.stringValue == "London")
    #expect(sample["tags"]?[1]?.intValue == 1843)
    #expect(sample["missing"] == nil)
    #expect(sample["tags"]?[2] == nil)
    #expect(sample["tags"]?[-1] == nil)
    #expect(sample[0] == nil)
    #expect(sample["name"]?["x"] == nil)
  }

  @Test func accessorsReturnValueOnlyForTheirKind() {
    #expect(sample["name"]?.stringValue == "Ada")
    #expect(sample["name"]?.intValue == nil)
    #expect(sample["age"]?.intValue == 36)
    #expect(sample["age"]?.doubleValue == 36)
    #expect(sample["score"]?.doubleValue == 9.5)
    #expect(sample["score"]?.intValue == nil)
    #expect(JSONValue.double(4).intValue == 4)
    #expect(sample["admin"]?.boolValue == true)
    #expect(sample["admin"]?.stringValue == nil)
    #expect(sample["tags"]?.arrayValue?.count == 2)
    #expect(sample["address"]?.objectValue?.keys.sorted() == ["city"])
    #expect(sample["manager"]?.isNull == true)
    #expect(sample["name"]?.isNull == false)
    #expect(sample.objectValue?.count == 7)
  }

  @Test func repeatedLiteralKeyKeepsLastValueInsteadOfCrashing() {
    let value: JSONValue = ["a": 1, "a": 2]
    #expect(value == ["a": 2])
  }

  @Test func codableRoundTripPreservesValue() throws {
    let data = try JSONEncoder().encode(sample)
    let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
    #expect(decoded == sample)
  }

  @Test func decodingKeepsIntegersAndFloatingNumbersApart() throws {
    let json = bytes(#"{"i":42,"f":2.5,"big":1e300,"neg":-7,"s":"42","b":false,"n":null}"#)
    let value = try JSONDecoder().decode(JSONValue.self, from: json)
    guard case .int(42) = value["i"] else {
      Issue.record("expected .int(42), got \(String(describing: value["i"]))")
      return
    }
    guard case .double(2.5) = value["f"] else {
      Issue.record("expected .double(2.5), got \(String(describing: value["f"]))")
      return
    }
    #expect(value["big"]?.doubleValue == 1e300)
    #expect(value["neg"]?.intValue == -7)
    #expect(value["s"] == .string("42"))
    #expect(value["b"] == .bool(false))
    #expect(value["n"] == .null)
  }

  @Test func numbersCompareAndHashByValue() {
    #expect(JSONValue.int(1) == .double(1.0))
    #expect(JSONValue.int(1) != .double(1.5))
    #expect(JSONValue.int(1) != .string("1"))
    #expect(JSONValue.bool(true) != .int(1))
    let set: Set<JSONValue> = [.int(3), .double(3.0), .double(3.5)]
    #expect(set.count == 2)
  }

  @Test func doubleWithWholeValueSurvivesEncodeDecode() throws {
    let value: JSONValue = ["ratio": 2.0]
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
  }

  @Test func sentAsBodyWithSortedKeys() throws {
    let body: JSONValue = ["zeta": 1, "alpha": ["b": 2, "a": 1], "mid": [true, nil]]
    let payload = try RequestPayload.json(body)
    #expect(text(payload.body) == #"{"alpha":{"a":1,"b":2},"mid":[true,null],"zeta":1}"#)
  }

  @Test func keyStrategiesLeaveObjectKeysAlone() throws {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let payload = try RequestPayload.json(["userName": "a"] as JSONValue, encoder: encoder)
    #expect(text(payload.body) == #"{"userName":"a"}"#)
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let value = try decoder.decode(JSONValue.self, from: bytes(#"{"user_name":"a"}"#))
    #expect(value["user_name"] == "a")
  }

  @Test func descriptionIsCompactJSONWithSortedKeys() {
    let value: JSONValue = ["b": [1, 2.5, "x\"y\n"], "a": nil, "c": false]
    #expect(value.description == #"{"a":null,"b":[1,2.5,"x\"y\n"],"c":false}"#)
  }

  @Test func decodesAsEndpointResource() throws {
    let endpoint = Endpoint<JSONValue>(json: .get, path: "anything", relativeTo: api)
    let value = try endpoint.parse(ok(), bytes(#"[{"id":1},{"id":2}]"#))
    #expect(value[1]?["id"]?.intValue == 2)
  }

  @Test func nonFiniteDoubleFailsToEncodeWithPath() {
    let value: JSONValue = ["reading": [1, .double(.infinity)]]
    let error = #expect(throws: EncodingFailure.self) { try RequestPayload.json(value) }
    #expect(error?.path == "reading[1]")
  }
}
