import EndpointJSON
import EndpointTesting
import Foundation
import Testing

/// The checked-in generated source (`Generated/`), called through a StubClient.
@Suite struct GeneratedEndpointTests {
  let api = URL(string: "https://pets.example/v1")!

  @Test func aPathParameterIsOneEncodedSegment() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/pets/{petId}").reply(
      json: #"{"id": 7, "name": "Rex", "status": "adopted", "owner": {"login": "ada"}}"#)
    let pet = try await stub.with(BaseURLMiddleware(api)).call(Pets.showPet(petId: "a/b c"))
    #expect(pet.id == 7)
    #expect(pet.owner?.login == "ada")
    // A value the document does not list is kept, not a decoding failure.
    #expect(pet.status == Status(rawValue: "adopted"))
    #expect(stub.requests.first?.url.absoluteString == "https://pets.example/v1/pets/a%2Fb%20c")
  }

  @Test func queryAndHeaderParametersAreSentOnlyWhenGiven() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/pets").reply(json: #"[{"id": 1, "name": "Rex", "status": "sold-out"}]"#)
    let client = stub.with(BaseURLMiddleware(api))
    let pets = try await client.call(
      Pets.listPets(status: .available, tags: ["a", "b"], xTrace: "t1"))
    #expect(pets.map(\.status) == [.soldOut])
    let request = try #require(stub.requests.first)
    #expect(request.queryItems.map(\.name) == ["status", "tags", "tags"])
    #expect(request.query("status") == "available")
    #expect(request.headerFields["X-Trace"] == "t1")
    _ = try await client.call(Pets.listPets(status: .default, limit: 5))
    #expect(stub.requests.last?.query("limit") == "5")
    #expect(stub.requests.last?.headerFields["X-Trace"] == nil)
  }

  @Test func aBodyIsSentAsJSONAndNoContentIsVoid() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.post, "/pets").reply(
      status: 201, json: #"{"id": 2, "name": "Tom", "status": "available"}"#)
    stub.on(.delete, "/pets/{petId}").reply(status: 204)
    stub.on(.patch, "/pets/{petId}").reply(status: 204)
    let client = stub.with(BaseURLMiddleware(api))
    let created = try await client.call(Pets.createPet(body: NewPet(name: "Tom", tag: nil)))
    #expect(created.name == "Tom")
    #expect(stub.requests[0].text == #"{"name":"Tom"}"#)
    try await client.call(Pets.deletePet(petId: "2"))
    try await client.call(Pets.renamePet(petId: "2"))
    #expect(stub.requests[2].body.isEmpty)
    try await client.call(Pets.renamePet(petId: "2", body: .init(name: "Tim")))
    #expect(stub.requests[3].text == #"{"name":"Tim"}"#)
  }

  @Test func aRequiredNullablePropertyIsSentAsNullAndAnOptionalOneIsLeftOut() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.put, "/pets/{petId}").reply(status: 204)
    let client = stub.with(BaseURLMiddleware(api))
    try await client.call(Pets.updatePet(petId: "2", body: PetUpdate(tag: nil)))
    #expect(stub.requests[0].text == #"{"tag":null}"#)
    try await client.call(Pets.updatePet(petId: "2", body: PetUpdate(name: "Tim", tag: "cat")))
    let sent = try JSONDecoder().decode(PetUpdate.self, from: stub.requests[1].body)
    #expect(sent == PetUpdate(name: "Tim", tag: "cat"))
  }

  @Test func aRequiredNullablePropertyMayBeNullButNotAbsent() throws {
    let decoder = JSONDecoder()
    #expect(
      try decoder.decode(PetUpdate.self, from: Data(#"{"tag": null}"#.utf8))
        == PetUpdate(tag: nil))
    #expect(throws: DecodingError.self) {
      try decoder.decode(PetUpdate.self, from: Data(#"{"name": "Tim"}"#.utf8))
    }
  }

  @Test func aDateTimeIsReadInEitherRFC3339FormWithoutConfiguringTheDecoder() async throws {
    let stub = StubClient(baseURL: api)
    let times = [
      "2024-05-01T12:30:45Z", "2024-05-01T12:30:45.250Z", "2024-05-01T14:30:45+02:00",
      "2024-05-01t12:30:45z", "yesterday",
    ]
    for (position, time) in times.enumerated() {
      stub.on(.get, .exact("/pets/\(position)")).reply(
        json: #"{"id": 1, "name": "Rex", "status": "available", "updated_at": "\#(time)"}"#)
    }
    let client = stub.with(BaseURLMiddleware(api))
    let whole = Date(timeIntervalSince1970: 1_714_566_645)
    #expect(try await client.call(Pets.showPet(petId: "0")).updatedAt == whole)
    #expect(
      try await client.call(Pets.showPet(petId: "1")).updatedAt == whole.addingTimeInterval(0.25))
    #expect(try await client.call(Pets.showPet(petId: "2")).updatedAt == whole)
    #expect(try await client.call(Pets.showPet(petId: "3")).updatedAt == whole)
    await #expect(throws: ParsingFailure.self) {
      try await client.call(Pets.showPet(petId: "4"))
    }
  }

  @Test func aDateTimeIsWrittenInRFC3339WithFractionsOnlyWhenItHasThem() throws {
    var pet = Pet(id: 1, name: "Rex", status: .available)
    pet.updatedAt = Date(timeIntervalSince1970: 1_714_566_645)
    let encoder = JSONEncoder()
    #expect(
      String(decoding: try encoder.encode(pet), as: UTF8.self)
        .contains(#""updated_at":"2024-05-01T12:30:45Z""#))
    pet.updatedAt = pet.updatedAt?.addingTimeInterval(0.25)
    let encoded = try encoder.encode(pet)
    #expect(String(decoding: encoded, as: UTF8.self).contains(#""2024-05-01T12:30:45.250Z""#))
    #expect(try JSONDecoder().decode(Pet.self, from: encoded) == pet)
  }

  @Test func aDocumentedErrorBodyIsDecodedByItsStatus() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/pets/1").reply(status: 404, json: #"{"title": "No such pet", "status": 404}"#)
    stub.on(.get, "/pets/2").reply(status: 503, json: #"{"retry_after": 5}"#)
    stub.on(.get, "/pets/3").reply(status: 400, json: #"{"title": "Bad"}"#)
    stub.on(.get, "/pets/4").reply(status: 404, json: #"{"detail": "no title"}"#)
    let client = stub.with(BaseURLMiddleware(api))
    func failure(_ id: String) async throws -> UnexpectedResponse {
      try await #require(throws: UnexpectedResponse.self) {
        try await client.call(Pets.showPet(petId: id))
      }
    }
    #expect(
      try Pets.ShowPetError(try await failure("1"))
        == .status404(Problem(status: 404, title: "No such pet")))
    #expect(
      try Pets.ShowPetError(try await failure("2")) == .serverError(.init(retryAfter: 5)))
    // The document describes no body for a 400.
    #expect(try Pets.ShowPetError(try await failure("3")) == nil)
    let mismatched = try await failure("4")
    #expect(throws: ParsingFailure.self) { try Pets.ShowPetError(mismatched) }
  }

  @Test func aBinaryBodyIsSentAsItsBytesAndABinaryResponseIsData() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.post, "/upload").reply(status: 204)
    stub.on(.get, "/pets/{petId}/photo").reply(
      headers: ["Content-Type": "image/jpeg"], body: Data([0xFF, 0xD8]))
    let client = stub.with(BaseURLMiddleware(api))
    try await client.call(Pets.uploadPhoto(body: Data([0x89, 0x50, 0x4E, 0x47])))
    #expect(stub.requests[0].body == Data([0x89, 0x50, 0x4E, 0x47]))
    #expect(stub.requests[0].headerFields["Content-Type"] == "image/png")
    let photo = try await client.call(Pets.showPhoto(petId: "7", session: "s1", size: 2))
    #expect(photo == Data([0xFF, 0xD8]))
    #expect(stub.requests[1].headerFields["Cookie"] == "session=s1; size=2")
    _ = try await client.call(Pets.showPhoto(petId: "7", session: "s2"))
    #expect(stub.requests[2].headerFields["Cookie"] == "session=s2")
  }

  /// A field cannot hold a line break: a cookie's value, or a text value in a header's object,
  /// is percent-encoded, so one is sent as data; a scalar header, sent as it is, fails the
  /// request before anything is sent.
  @Test func aLineBreakInAHeaderOrCookieValueNeverReachesTheWire() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/pets/{petId}/photo").reply(body: Data())
    stub.on(.get, "/measures").reply(status: 204)
    let client = stub.with(BaseURLMiddleware(api))
    _ = try await client.call(Pets.showPhoto(petId: "7", session: "s1\r\nX-Admin: 1"))
    #expect(stub.requests[0].headerFields["Cookie"] == "session=s1%0D%0AX-Admin:%201")
    try await client.call(
      Styles.showMeasures(
        xBox: Size(height: 1, unit: "cm\r\nX-Admin: 1", width: 2), token: "t", numbers: []))
    #expect(stub.requests[1].headerFields["X-Box"] == "height,1,unit,cm%0D%0AX-Admin:%201,width,2")
    #expect(stub.requests[1].headerFields["X-Admin"] == nil)

    let error = await #expect(throws: InvalidRequest.self) {
      try await client.call(Pets.listPets(status: .available, xTrace: "t1\r\nX-Admin: 1"))
    }
    #expect(error?.kind == .headerField)
    #expect(stub.requests.count == 2)
  }

  /// A query array or object in `form`, not exploded, as RFC 6570 expands it: the `,` between
  /// values as it is, a `,` (or `&`, `+`, space) in a value percent-encoded; without one, no `?`.
  @Test func anUnexplodedQueryArrayKeepsItsSeparatorsAndEncodesItsValues() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/simples/{code}/{words}/{numbers}/{size}/{box}").reply(status: 204)
    let client = stub.with(BaseURLMiddleware(api))
    let size = Size(height: 1, width: 2)
    try await client.call(
      Styles.showSimples(
        code: 1, words: ["w"], numbers: [2], size: size, box: size, tags: ["a,b", "c+d&e"],
        near: Size(height: 3, unit: "x y", width: 4)))
    #expect(
      stub.requests[0].url.absoluteString
        == "https://pets.example/v1/simples/1/w/2/height=1,width=2/height,1,width,2"
        + "?tags=a%2Cb,c%2Bd%26e&near=height,3,unit,x%20y,width,4")
    try await client.call(
      Styles.showSimples(code: 1, words: ["w"], numbers: [2], size: size, box: size))
    #expect(
      stub.requests[1].url.absoluteString
        == "https://pets.example/v1/simples/1/w/2/height=1,width=2/height,1,width,2")
  }

  @Test func aFormBodyIsSentAsOneFieldPerValue() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.post, "/login").reply(status: 204)
    let client = stub.with(BaseURLMiddleware(api))
    try await client.call(Pets.logIn(body: .init(remember: true, scopes: ["a", "b"], user: "a&b")))
    #expect(stub.requests[0].headerFields["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(stub.requests[0].text == "remember=true&scopes=a&scopes=b&user=a%26b")
    try await client.call(Pets.logIn(body: .init(user: "ada")))
    #expect(stub.requests[1].text == "user=ada")
  }

  @Test func deepObjectAndPipeDelimitedQueryParametersFollowTheirStyle() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/pets").reply(json: "[]")
    let client = stub.with(BaseURLMiddleware(api))
    _ = try await client.call(
      Pets.listPets(status: .available, filter: .init(minAge: 2), ids: [3, 4]))
    let request = try #require(stub.requests.first)
    #expect(request.queryItems.map(\.name) == ["status", "filter[min_age]", "ids"])
    #expect(request.query("filter[min_age]") == "2")
    #expect(request.query("ids") == "3|4")
  }
}
