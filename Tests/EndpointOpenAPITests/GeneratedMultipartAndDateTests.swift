import EndpointJSON
import EndpointTesting
import Foundation
import Testing

/// The checked-in generated source (`Generated/`): a multipart body's exact bytes, and
/// date-times, their arrays and dictionaries, through the shared `RFC3339` wrapper; base64
/// bytes through the shared `Base64` wrapper.
@Suite struct GeneratedMultipartAndDateTests {
  let api = URL(string: "https://pets.example/v1")!

  /// The body a stub received, with its boundary replaced by `B`.
  func sentBody(_ stub: StubClient) throws -> String {
    let request = try #require(stub.requests.last)
    let contentType = try #require(request.headerFields["Content-Type"])
    let prefix = "multipart/form-data; boundary="
    #expect(contentType.hasPrefix(prefix))
    let boundary = String(contentType.dropFirst(prefix.count))
    return String(decoding: request.body, as: UTF8.self)
      .replacingOccurrences(of: boundary, with: "B")
  }

  @Test func aMultipartBodyHasOnePartPerPropertyAndNoneForNil() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.post, "/documents").reply(status: 204)
    let client = stub.with(BaseURLMiddleware(api))
    try await client.call(
      Pets.uploadDocuments(
        body: .init(
          file: Data("%PDF".utf8), labels: ["a", "b c"], meta: .init(author: "Ada"), pages: 3,
          scans: [Data("s1".utf8), Data("s2".utf8)],
          signedAt: Date(timeIntervalSince1970: 1_714_566_645.25), title: "Q1")))
    let disposition = "Content-Disposition: form-data; name="
    #expect(
      try sentBody(stub)
        == "--B\r\n\(disposition)\"file\"; filename=\"file\"\r\n"
        + "Content-Type: application/pdf\r\n\r\n%PDF\r\n"
        + "--B\r\n\(disposition)\"labels\"\r\n\r\na\r\n"
        + "--B\r\n\(disposition)\"labels\"\r\n\r\nb c\r\n"
        + "--B\r\n\(disposition)\"meta\"\r\nContent-Type: application/json\r\n\r\n"
        + "{\"author\":\"Ada\"}\r\n"
        + "--B\r\n\(disposition)\"pages\"\r\n\r\n3\r\n"
        + "--B\r\n\(disposition)\"scans\"; filename=\"scans\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\ns1\r\n"
        + "--B\r\n\(disposition)\"scans\"; filename=\"scans\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\ns2\r\n"
        + "--B\r\n\(disposition)\"signed_at\"\r\n\r\n2024-05-01T12:30:45.250Z\r\n"
        + "--B\r\n\(disposition)\"title\"\r\n\r\nQ1\r\n"
        + "--B--\r\n")

    try await client.call(Pets.uploadDocuments(body: .init(file: Data(), title: "Q2")))
    #expect(
      try sentBody(stub)
        == "--B\r\n\(disposition)\"file\"; filename=\"file\"\r\n"
        + "Content-Type: application/pdf\r\n\r\n\r\n"
        + "--B\r\n\(disposition)\"title\"\r\n\r\nQ2\r\n"
        + "--B--\r\n")
  }

  @Test func datesInArraysAndDictionariesAreRFC3339WhateverTheCodersStrategy() throws {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let json = #"""
      {"id": 1, "name": "Rex", "status": "available",
       "visits": ["2024-05-01T12:30:45Z", "2024-05-01T12:30:45.250Z"],
       "seen": {"vet": "2024-05-01T14:30:45+02:00"}}
      """#
    let pet = try decoder.decode(Pet.self, from: Data(json.utf8))
    let whole = Date(timeIntervalSince1970: 1_714_566_645)
    #expect(pet.visits == [whole, whole.addingTimeInterval(0.25)])
    #expect(pet.seen == ["vet": whole])
    // An optional date-time absent or null is `nil`.
    #expect(pet.updatedAt == nil)
    let null = #"{"id": 1, "name": "Rex", "status": "available", "updated_at": null}"#
    #expect(try decoder.decode(Pet.self, from: Data(null.utf8)).updatedAt == nil)

    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .secondsSince1970
    let encoded = String(decoding: try encoder.encode(pet), as: UTF8.self)
    #expect(
      encoded
        == #"{"id":1,"name":"Rex","seen":{"vet":"2024-05-01T12:30:45Z"},"status":"available","#
        + #""visits":["2024-05-01T12:30:45Z","2024-05-01T12:30:45.250Z"]}"#)
    #expect(try decoder.decode(Pet.self, from: Data(encoded.utf8)) == pet)
  }

  /// Base64 properties (`format: byte`) are `Data` in arrays and dictionaries, read and written
  /// as base64 text whatever the coders' data strategy; absent is `nil` and left out; text that
  /// is not base64 is a decoding error at its key.
  @Test func base64PropertiesAreDataWhateverTheCodersStrategy() throws {
    let decoder = JSONDecoder()
    decoder.dataDecodingStrategy = .deferredToData
    let json = #"""
      {"id": 1, "name": "Rex", "status": "available",
       "photos": ["AAH/", ""], "keys": {"a": "c2lnbmVk"}}
      """#
    let pet = try decoder.decode(Pet.self, from: Data(json.utf8))
    #expect(pet.photos == [Data([0, 1, 0xFF]), Data()])
    #expect(pet.keys == ["a": Data("signed".utf8)])
    let bare = #"{"id": 1, "name": "Rex", "status": "available", "photos": null}"#
    let plain = try decoder.decode(Pet.self, from: Data(bare.utf8))
    #expect(plain.photos == nil && plain.keys == nil)

    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dataEncodingStrategy = .deferredToData
    let encoded = String(decoding: try encoder.encode(pet), as: UTF8.self)
    #expect(
      encoded
        == #"{"id":1,"keys":{"a":"c2lnbmVk"},"name":"Rex","photos":["AAH\/",""],"#
        + #""status":"available"}"#)
    #expect(
      String(decoding: try encoder.encode(plain), as: UTF8.self)
        == #"{"id":1,"name":"Rex","status":"available"}"#)

    // A node's hand-written coding: the optional checksum, present or absent.
    let node = try decoder.decode(
      Node.self,
      from: Data(#"{"name": "Rex", "parent": null, "children": [], "checksum": "UmV4"}"#.utf8))
    #expect(node.checksum == Data("Rex".utf8))
    #expect(
      String(decoding: try encoder.encode(node), as: UTF8.self)
        == #"{"checksum":"UmV4","children":[],"name":"Rex","parent":null}"#)

    for (bad, path) in [
      (#""photos": ["AAH/", "not base64!"]"#, ["photos", "Index 1"]),
      (#""keys": {"a": "UmV"}"#, ["keys", "a"]),
    ] {
      let text = #"{"id": 1, "name": "Rex", "status": "available", \#(bad)}"#
      let error = #expect(throws: DecodingError.self) {
        try decoder.decode(Pet.self, from: Data(text.utf8))
      }
      guard case .dataCorrupted(let context) = error else {
        Issue.record("not dataCorrupted: \(String(describing: error))")
        continue
      }
      #expect(context.debugDescription.hasPrefix("Not base64 text: "), "\(context)")
      #expect(context.codingPath.map(\.stringValue) == path)
    }
  }

  /// A base64 body and answer are `Data`, sent and read as base64 text; an answer that is not
  /// base64 is a parsing failure.
  @Test func aBase64BodyAndAnswerAreData() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.put, "/pets/2/signature").replies([.json(#""c2lnbmVk""#), .json(#""c2ln*""#)])
    let client = stub.with(BaseURLMiddleware(api))
    let signed = try await client.call(Pets.signPet(petId: "2", body: Data([0, 1, 0xFF])))
    #expect(signed == Data("signed".utf8))
    #expect(stub.requests.last?.text == #""AAH\/""#)
    let error = await #expect(throws: ParsingFailure.self) {
      try await client.call(Pets.signPet(petId: "2", body: Data()))
    }
    #expect(
      error?.description.contains("Not base64 text: c2ln*") == true, "\(String(describing: error))")
  }

  /// A date-time query parameter is sent as RFC 3339 in UTC, a fraction only when the date
  /// has one (its `:` percent-encoded, as the query encodes it).
  @Test func aDateTimeParameterIsSentAsRFC3339() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/visits").reply(json: "[]")
    let client = stub.with(BaseURLMiddleware(api))
    let whole = Date(timeIntervalSince1970: 1_714_566_645)
    _ = try await client.call(Visits.listVisits(petId: "7", since: whole))
    _ = try await client.call(Visits.listVisits(petId: "7", since: whole.addingTimeInterval(0.25)))
    #expect(
      stub.requests.map(\.url.absoluteString) == [
        "https://pets.example/v1/visits?petId=7&since=2024-05-01T12%3A30%3A45Z",
        "https://pets.example/v1/visits?petId=7&since=2024-05-01T12%3A30%3A45.250Z",
      ])
  }

  /// A date-time answer and a body of date-times are RFC 3339 too, though the endpoints'
  /// coders have no date strategy for it.
  @Test func aDateTimeBodyAndAnswerAreRFC3339() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/visits/next").reply(json: #""2024-05-01T14:30:45.250+02:00""#)
    stub.on(.put, "/visits/next").reply(json: #"["2024-05-01T12:30:45Z"]"#)
    let client = stub.with(BaseURLMiddleware(api))
    let whole = Date(timeIntervalSince1970: 1_714_566_645)
    #expect(try await client.call(Visits.nextVisit()) == whole.addingTimeInterval(0.25))
    let planned = try await client.call(
      Visits.planVisits(body: [whole, whole.addingTimeInterval(0.25)]))
    #expect(planned == [whole])
    #expect(stub.requests.last?.text == #"["2024-05-01T12:30:45Z","2024-05-01T12:30:45.250Z"]"#)

    // A calendar day is not a date-time.
    let day = StubClient(baseURL: api)
    day.on(.get, "/visits/next").reply(json: #""2024-05-01""#)
    let error = await #expect(throws: ParsingFailure.self) {
      try await day.with(BaseURLMiddleware(api)).call(Visits.nextVisit())
    }
    #expect(
      error?.description.contains("Not an RFC 3339 date-time: 2024-05-01") == true,
      "\(String(describing: error))")
  }

  /// A `Timestamp` schema is a `Date`, so an error body naming it is a `Date` read as RFC 3339,
  /// and so is the date-time variant of the `Reopening` oneOf beside its calendar-day variant:
  /// each text matches one variant, which encodes back to that text.
  @Test func dateTimeErrorBodiesAndVariantsAreDatesAndDays() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/visits/next").replies([
      .json(#""2024-05-01T14:30:45+02:00""#, status: 429),
      .json(#""2024-05-01T12:30:45.250Z""#, status: 503),
      .json(#""2024-05-02""#, status: 503),
      .json(#""2024-05-02T12""#, status: 503),
    ])
    let client = stub.with(BaseURLMiddleware(api))
    func failure() async throws -> UnexpectedResponse {
      try await #require(throws: UnexpectedResponse.self) {
        try await client.call(Visits.nextVisit())
      }
    }
    let whole = Date(timeIntervalSince1970: 1_714_566_645)
    let later: Timestamp = whole
    #expect(try Visits.NextVisitError(try await failure()) == .status429(later))
    #expect(
      try Visits.NextVisitError(try await failure())
        == .status503(.date(whole.addingTimeInterval(0.25))))
    let day = try #require(CalendarDay(year: 2024, month: 5, day: 2))
    #expect(try Visits.NextVisitError(try await failure()) == .status503(.day(day)))
    // Neither a date-time nor a day.
    let neither = try await failure()
    #expect(throws: ParsingFailure.self) { try Visits.NextVisitError(neither) }

    // Whatever the encoder's date strategy, the variant is written as its text.
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let encoded = try encoder.encode([Reopening.date(whole), .day(day)])
    #expect(String(decoding: encoded, as: UTF8.self) == #"["2024-05-01T12:30:45Z","2024-05-02"]"#)
  }

  /// A calendar day is `yyyy-MM-dd`, validated: a day its month does not have, or other text,
  /// is a decoding error; days compare by date and print as their text.
  @Test func aCalendarDayIsItsTextAndOnlyADayThatExists() throws {
    let json = #"{"id": 1, "name": "Rex", "status": "available", "birth_date": "2024-02-29"}"#
    let pet = try JSONDecoder().decode(Pet.self, from: Data(json.utf8))
    let leapDay = try #require(CalendarDay(year: 2024, month: 2, day: 29))
    #expect(pet.birthDate == leapDay)
    #expect((leapDay.year, leapDay.month, leapDay.day) == (2024, 2, 29))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(NewPet(birthDate: leapDay, name: "Rex")), as: UTF8.self)
        == #"{"birth_date":"2024-02-29","name":"Rex"}"#)
    #expect(CalendarDay(year: 2023, month: 2, day: 29) == nil)
    #expect(CalendarDay(year: 2024, month: 13, day: 1) == nil)
    #expect(CalendarDay("0001-01-01")?.description == "0001-01-01")
    for text in ["2024-5-01", "20240501", "2024-05-01T00:00:00Z", "+024-05-01", "2024-05-0x"] {
      #expect(CalendarDay(text) == nil, "\(text)")
    }
    #expect(try #require(CalendarDay("2023-12-31")) < leapDay)
    #expect(!(leapDay < leapDay))
    #expect(String(describing: leapDay) == "2024-02-29")

    for (text, reason) in [
      ("2024-02-30", "Not a calendar day (yyyy-MM-dd): 2024-02-30"),
      ("May 1st", "Not a calendar day (yyyy-MM-dd): May 1st"),
    ] {
      let bad = #"{"id": 1, "name": "Rex", "status": "available", "birth_date": "\#(text)"}"#
      let error = #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(Pet.self, from: Data(bad.utf8))
      }
      guard case .dataCorrupted(let context) = error else {
        Issue.record("not dataCorrupted: \(String(describing: error))")
        continue
      }
      #expect(context.debugDescription == reason)
      #expect(context.codingPath.map(\.stringValue) == ["birth_date"])
    }
  }

  @Test func aDateThatIsNotRFC3339InAnArrayIsADecodingError() throws {
    let json = #"{"id": 1, "name": "Rex", "status": "available", "visits": ["yesterday"]}"#
    let error = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Pet.self, from: Data(json.utf8))
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("not dataCorrupted: \(String(describing: error))")
      return
    }
    #expect(context.debugDescription == "Not an RFC 3339 date-time: yesterday")
    #expect(context.codingPath.map(\.stringValue) == ["visits", "Index 0"])
  }
}
