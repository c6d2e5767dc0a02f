import EndpointJSON
import EndpointTesting
import Foundation
import Testing

/// The enums generated for `oneOf` and `anyOf` in `Generated/`, called through a StubClient.
@Suite struct GeneratedChoiceTests {
  let api = URL(string: "https://pets.example/v1")!

  @Test func aDiscriminatorChoosesTheVariantByItsMappingOrSchemaName() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/animals/1").reply(json: #"{"petType": "kitty", "lives": 9}"#)
    stub.on(.get, "/animals/2").reply(
      json: #"{"petType": "Dog", "friends": [{"petType": "Cat", "lives": 3}]}"#)
    let client = stub.with(BaseURLMiddleware(api))
    #expect(try await client.call(Pets.showAnimal(id: 1)) == .cat(Cat(lives: 9, petType: "kitty")))
    #expect(
      try await client.call(Pets.showAnimal(id: 2))
        == .dog(Dog(friends: [.cat(Cat(lives: 3, petType: "Cat"))], petType: "Dog")))
  }

  @Test func anUnknownDiscriminatorValueIsKeptAndEncodedAsItCame() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/animals/3").reply(json: #"{"petType": "parrot", "words": 12}"#)
    let animal = try await stub.with(BaseURLMiddleware(api)).call(Pets.showAnimal(id: 3))
    #expect(animal == .unknown(["petType": "parrot", "words": 12]))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(animal), as: UTF8.self)
        == #"{"petType":"parrot","words":12}"#)
  }

  @Test func aMissingDiscriminatorIsAParsingFailure() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/animals/4").reply(json: #"{"lives": 9}"#)
    await #expect(throws: ParsingFailure.self) {
      try await stub.with(BaseURLMiddleware(api)).call(Pets.showAnimal(id: 4))
    }
  }

  @Test func oneOfDecodesTheOneVariantThatMatchesAndRefusesOtherValues() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/pets/1").reply(
      json: #"{"id": 1, "name": "Rex", "status": "available", "kind": 3}"#)
    stub.on(.get, "/pets/2").reply(
      json: #"{"id": 2, "name": "Tom", "status": "available", "kind": "cat"}"#)
    stub.on(.get, "/pets/3").reply(
      json: #"{"id": 3, "name": "Tim", "status": "available", "kind": true}"#)
    let client = stub.with(BaseURLMiddleware(api))
    let rex = try await client.call(Pets.showPet(petId: "1"))
    #expect(rex.kind == .integer(3))
    #expect(try await client.call(Pets.showPet(petId: "2")).kind == .string("cat"))
    await #expect(throws: ParsingFailure.self) {
      try await client.call(Pets.showPet(petId: "3"))
    }
    let encoded = try JSONEncoder().encode(rex)
    #expect(try JSONDecoder().decode(Pet.self, from: encoded) == rex)
    #expect(String(decoding: encoded, as: UTF8.self).contains(#""kind":3"#))
  }

  @Test func anyOfDecodesTheFirstVariantThatMatches() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/pets/1").reply(
      json: #"{"id": 1, "name": "Rex", "status": "available", "label": "good"}"#)
    stub.on(.get, "/pets/2").reply(
      json: #"{"id": 2, "name": "Tom", "status": "available", "label": ["a", "b"]}"#)
    stub.on(.get, "/pets/3").reply(
      json: #"{"id": 3, "name": "Tim", "status": "available", "label": 5}"#)
    let client = stub.with(BaseURLMiddleware(api))
    #expect(try await client.call(Pets.showPet(petId: "1")).label == .string("good"))
    #expect(try await client.call(Pets.showPet(petId: "2")).label == .stringArray(["a", "b"]))
    await #expect(throws: ParsingFailure.self) {
      try await client.call(Pets.showPet(petId: "3"))
    }
  }
}
