import EndpointJSON
import EndpointTestSupport
import EndpointTransport
import Foundation
import Testing

/// The checked-in generated source (`Generated/`) called over the wire, through a real client,
/// against a server that answers the operations of the same document
/// (`Tests/Servers/openapi_example_server.py`): it refuses a request the document does not
/// allow (a missing required parameter, a body that does not match its schema, a label or
/// matrix segment, object header or cookie that does not parse by its style and type) and
/// answers with the document's examples, or values made from its schemas with every property
/// present; it records what it parsed of each parameter, and serves the pages of a documented
/// `Link` header and of the cursor `Documents/pets-config.json` configures.
@Suite(.serialized) struct EndToEndTests {
  @Test func everyGeneratedOperationIsAcceptedAndItsAnswerDecodes() async throws {
    try await withExampleServer(document: "pets.json") { client, base in
      let pets = try await client.call(Pets.listPets(status: .available, limit: 3))
      #expect(pets.count == 1)
      #expect(pets.first?.id == 7)
      #expect(pets.first?.owner?.login == "text")
      let query = try await lastRequest(client, base)["query"] as? String
      #expect(query == "limit=3&status=available")

      let created = try await client.call(Pets.createPet(body: NewPet(name: "Tom", tag: nil)))
      #expect(created.status == .available)
      #expect(try await lastRequest(client, base)["body"] as? String == #"{"name":"Tom"}"#)
      // A calendar day, which the server checks, and reads back from its example.
      let born = try #require(CalendarDay(year: 2024, month: 2, day: 29))
      let tom = try await client.call(Pets.createPet(body: NewPet(birthDate: born, name: "Tom")))
      #expect(tom.birthDate == CalendarDay("2026-01-02"))
      #expect(
        try await lastRequest(client, base)["body"] as? String
          == #"{"birth_date":"2024-02-29","name":"Tom"}"#)

      let shown = try await client.call(Pets.showPet(petId: "a b"))
      #expect(shown.name == "text")
      // Date-times, alone and in an array and a dictionary, as the server writes them.
      let example = Date(timeIntervalSince1970: 1_767_323_045)
      #expect(shown.updatedAt == example)
      #expect(shown.visits == [example])
      #expect(shown.seen == ["additional": example])
      #expect(try await lastRequest(client, base)["path"] as? String == "/pets/a%20b")

      try await client.call(Pets.deletePet(petId: "2"))
      #expect(try await lastRequest(client, base)["method"] as? String == "DELETE")
      try await client.call(Pets.renamePet(petId: "2", body: .init(name: "Tim")))
      #expect(try await lastRequest(client, base)["body"] as? String == #"{"name":"Tim"}"#)

      // The server checks each part against the document: files, text, JSON.
      try await client.call(
        Pets.uploadDocuments(
          body: .init(
            file: Data("%PDF".utf8), labels: ["a", "b"], meta: .init(author: "Ada"), pages: 2,
            scans: [Data([0, 1, 0xFF])], title: "Q1")))
      let upload = try await lastRequest(client, base)
      let headers = upload["headers"] as? [String: Any]
      #expect(
        (headers?["content-type"] as? String)?.hasPrefix("multipart/form-data; boundary=") == true)
      #expect((upload["body"] as? String)?.contains("\r\n\r\n{\"author\":\"Ada\"}\r\n") == true)

      // A date-time answer, and a body and answer of date-times, which the server checks.
      #expect(try await client.call(Visits.nextVisit()) == example)
      let planned = try await client.call(Visits.planVisits(body: [example]))
      #expect(planned == [example, example.addingTimeInterval(86_400.5)])
      #expect(
        try await lastRequest(client, base)["body"] as? String == #"["2026-01-02T03:04:05Z"]"#)

      let health = try await client.call(API.health())
      #expect(health == ["additional": "text"])
    }
  }

  @Test func binaryBodiesTreesErrorBodiesAndNullsGoOverTheWireAsTheDocumentSays() async throws {
    try await withExampleServer(document: "pets.json") { client, base in
      // A binary request body, in its media type, every byte as it is; a binary answer.
      let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
      try await client.call(Pets.uploadPhoto(body: png))
      var request = try await lastRequest(client, base)
      #expect(request["bytes"] as? String == png.base64EncodedString())
      #expect((request["headers"] as? [String: Any])?["content-type"] as? String == "image/png")
      #expect(try await client.call(Pets.showPhoto(petId: "2", session: "s")) == Data("JFIF".utf8))

      // A base64 (`format: byte`) body and answer are `Data`, sent and read as base64 text,
      // which the server checks.
      let signature = try await client.call(Pets.signPet(petId: "2", body: Data("sig".utf8)))
      #expect(signature == Data("signed".utf8))
      #expect(try await lastRequest(client, base)["body"] as? String == #""c2ln""#)

      // A recursive schema decoded three levels deep, from the first of the response's
      // `examples`: a status the document does not list is kept, and a `format: byte` property
      // is the bytes its base64 text holds. The `spaceDelimited` query array is joined by spaces.
      let tree = try await client.call(Pets.showTree(levels: [1, 2, 3]))
      #expect(tree.name == "Rex")
      #expect(tree.children.map(\.name) == ["Ada", "Cy"])
      #expect(tree.children.first?.children.first?.name == "Bea")
      #expect(tree.children.first?.children.first?.children == [])
      #expect(tree.children.first?.status == Status(rawValue: "adopted"))
      #expect(tree.checksum == Data("Rex".utf8))
      // Present as `null` (required, nullable) and absent (optional) are told apart: the root's
      // `parent` is `null`, Bea has no `status`; a node without `parent` does not decode, and
      // each encodes back as it came.
      #expect(tree.parent == nil)
      // A key the schema does not list is kept in `additionalProperties`, and sent back.
      #expect(tree.additionalProperties == ["nickname": "Rexy"])
      #expect(tree.children.first?.additionalProperties == [:])
      let again = try JSONEncoder().encode(tree)
      #expect(try JSONDecoder().decode(Node.self, from: again) == tree)
      #expect(String(decoding: again, as: UTF8.self).contains(#""nickname":"Rexy""#))
      #expect(String(decoding: again, as: UTF8.self).contains(#""checksum":"UmV4""#))
      #expect(tree.children.first?.parent == "Rex")
      let bea = try #require(tree.children.first?.children.first)
      #expect(bea.status == nil)
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      #expect(
        String(decoding: try encoder.encode(bea), as: UTF8.self)
          == #"{"children":[],"name":"Bea","parent":"Ada"}"#)
      #expect(
        String(
          decoding: try encoder.encode(Node(children: [], name: "Rex", parent: nil)), as: UTF8.self)
          == #"{"children":[],"name":"Rex","parent":null}"#)
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(Node.self, from: Data(#"{"name":"Rex","children":[]}"#.utf8))
      }
      request = try await lastRequest(client, base)
      #expect(request["query"] as? String == "levels=1%202%203")
      #expect(try sortedJSON(request["parsed"]) == #"{"query":{"levels":[1,2,3]}}"#)

      // A required nullable property left `nil` is sent as `null`; an optional one is left out
      // (the server refuses a `null` where the schema does not allow one).
      try await client.call(Pets.updatePet(petId: "2", body: PetUpdate(name: nil, tag: nil)))
      #expect(try await lastRequest(client, base)["body"] as? String == #"{"tag":null}"#)
      // Additional properties are sent beside the listed ones (a listed key among them is not).
      try await client.call(
        Pets.updatePet(
          petId: "2",
          body: PetUpdate(tag: "t", additionalProperties: ["color": "red", "tag": "x"])))
      #expect(
        try await lastRequest(client, base)["body"] as? String == #"{"color":"red","tag":"t"}"#)

      // A documented 4xx: the call throws `UnexpectedResponse`, whose body decodes as the
      // status documents (the server answers the status a `Prefer: code=` field names).
      let failing = URLSessionHTTPClient().with(
        BaseURLMiddleware(base), try DefaultHeadersMiddleware(["Prefer": "code=404"]))
      let failure = try await #require(throws: UnexpectedResponse.self) {
        try await failing.call(Pets.showPet(petId: "9"))
      }
      #expect(failure.status == 404)
      #expect(try Pets.ShowPetError(failure) == .status404(Problem(status: 404, title: "No pet 9")))
    }
  }

  @Test func theServerRefusesWhatTheDocumentDoesNotAllow() async throws {
    // The check of the server itself: a request the generated code could never make.
    try await withExampleServer(document: "pets.json") { client, base in
      let request = HTTPRequest(method: .get, url: base.appending(path: "pets"))
      let (response, body) = try await client.send(request)
      #expect(response.status == 400)
      let text = String(decoding: try await body.collect(), as: UTF8.self)
      #expect(text.contains("the required query parameter 'status' is missing"))

      // A multipart body without its required file, and one whose file is not of the
      // document's media type.
      for (part, reason) in [
        ("name=\"pages\"\r\n\r\n2", "the required part 'file' is missing"),
        (
          "name=\"file\"; filename=\"f\"\r\nContent-Type: text/plain\r\n\r\nx",
          "the part 'file' is not a file of application/pdf"
        ),
      ] {
        var fields = HTTPFields()
        try fields.set("multipart/form-data; boundary=b", for: "Content-Type")
        let upload = HTTPRequest(
          method: .post, url: base.appending(path: "documents"), headerFields: fields,
          body: HTTPBody(
            Data(
              ("--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nQ1\r\n"
                + "--b\r\nContent-Disposition: form-data; \(part)\r\n--b--\r\n").utf8)))
        let (refused, refusal) = try await client.send(upload)
        #expect(refused.status == 400)
        let reply = String(decoding: try await refusal.collect(), as: UTF8.self)
        #expect(reply.contains(reason), "\(reply)")
      }

      // Label and matrix segments, object headers and cookies the generated code could never
      // send, each with one thing wrong: the server reads them by their style and type.
      let labels = "labels/.7/.a/.1/.height=2.width=3/.height,4,width,5"
      let matrices =
        "matrices/;code=7/;words=a;words=b/;numbers=1,2/;height=2;width=3/;box=height,4,width,5"
      let measures = ["X-Box": "height,4,width,5", "Cookie": "token=t; numbers=1,2"]
      for (path, fields, reason) in [
        (
          labels.replacing("/.7/", with: "/7/"), [:],
          "'code' is '7', without the '.' of the label style"
        ),
        (
          labels.replacing(".height,4,", with: ".height=4,"), [:], "'box' has a key without a value"
        ),
        (labels.replacing("/.1/", with: "/.1,x/"), [:], "'numbers'[1] is 'x', not an integer"),
        (matrices.replacing(";words=b", with: ";nouns=b"), [:], "which names 'nouns', not 'words'"),
        (
          matrices.replacing(";width=3", with: ";depth=3"), [:],
          "'depth', not one of its properties"
        ),
        (
          "measures", measures.merging(["Cookie": "token=t; numbers=1,two"]) { $1 },
          "'numbers'[1] is 'two', not an integer"
        ),
        (
          "measures", measures.merging(["Cookie": "numbers=1"]) { $1 },
          "the required cookie parameter 'token' is missing"
        ),
        (
          "measures", measures.merging(["Cookie": "token=t; numbers=1; box=width,3"]) { $1 },
          "'box' lacks the required property 'height'"
        ),
        (
          "measures", measures.merging(["Cookie": "token=t \"1\"; numbers=1"]) { $1 },
          "the cookie 'token' holds ' ', which a cookie value cannot"
        ),
        (
          "measures", measures.merging(["X-Box": "height=4,width=5"]) { $1 },
          "'X-Box' has 'height=4', not one of its properties"
        ),
        ("visits?petId=7&page=4", [:], "there is no page '4' of 3"),
        ("tree?levels=1%20x", [:], "'levels'[1] is 'x', not an integer"),
        ("visits?petId=7&since=2024-05-01T12:30:45", [:], "not an RFC 3339 date-time"),
      ] {
        var headers = HTTPFields()
        for (name, value) in fields { try headers.set(value, for: name) }
        let url = try #require(URL(string: path, relativeTo: base)?.absoluteURL)
        let (refused, refusal) = try await client.send(
          HTTPRequest(method: .get, url: url, headerFields: headers))
        #expect(refused.status == 400, "\(path)")
        let reply = String(decoding: try await refusal.collect(), as: UTF8.self)
        #expect(reply.contains(reason), "\(path): \(reply)")
      }
      // A `null` where the schema allows none, a required nullable property left out, an
      // additional property not of its schema's type, text that is not base64, a binary
      // body in a media type the document does not list, and an empty one.
      for (method, path, type, body, reason) in [
        (
          HTTPMethod.put, "pets/2", "application/json", #"{"name":null,"tag":null}"#,
          "body.name is null"
        ),
        (
          .put, "pets/2", "application/json", #"{"name":"Tim"}"#,
          "lacks the required property 'tag'"
        ),
        (
          .put, "pets/2", "application/json", #"{"tag":null,"color":1}"#,
          "body.color is int, not string"
        ),
        (
          .post, "upload", "image/jpeg", "x",
          "a body in image/jpeg where the document lists ['image/png']"
        ),
        (.post, "upload", "image/png", "", "the required request body is missing"),
        (.put, "pets/2/signature", "application/json", #""s!g""#, "body is 's!g', not base64"),
      ] {
        var fields = HTTPFields()
        try fields.set(type, for: "Content-Type")
        let (refused, refusal) = try await client.send(
          HTTPRequest(
            method: method, url: base.appending(path: path), headerFields: fields,
            body: HTTPBody(Data(body.utf8))))
        #expect(refused.status == 400, "\(path)")
        let reply = String(decoding: try await refusal.collect(), as: UTF8.self)
        #expect(reply.contains(reason), "\(path): \(reply)")
      }
      // The same requests, nothing wrong, are accepted.
      for path in [labels, matrices] {
        let url = try #require(URL(string: path, relativeTo: base)?.absoluteURL)
        #expect(try await client.send(HTTPRequest(method: .get, url: url)).0.status == 204)
      }
    }
  }

  @Test func everyStyleOfPathHeaderAndCookieParametersArrivesAsTheDocumentSays() async throws {
    try await withExampleServer(document: "pets.json") { client, base in
      // Values that hold the styles' delimiters, each percent-encoded where it is a value.
      let words = ["a b", "c/d", "e.f,g;h=i"]
      let (slash, comma) = (
        Size(height: 2, unit: "m;s=1,2", width: 3), Size(height: 4, unit: "x,y", width: 5)
      )
      let parsedPath =
        #"{"path":{"box":{"height":4,"unit":"x,y","width":5},"code":7,"numbers":[1,-2],"#
        + #""size":{"height":2,"unit":"m;s=1,2","width":3},"words":["a b","c/d","e.f,g;h=i"]}}"#

      // Label: `.` then the value; an array's items and an object's `key=value` pairs after a
      // `.` each when exploded, else `,`-separated, an object's keys and values in turn.
      try await client.call(
        Styles.showLabels(code: 7, words: words, numbers: [1, -2], size: slash, box: comma))
      var request = try await lastRequest(client, base)
      var parsed = ""
      #expect(
        request["path"] as? String
          == "/labels/.7/.a%20b.c%2Fd.e%2Ef%2Cg%3Bh%3Di/.1,-2"
          + "/.height=2.unit=m%3Bs%3D1%2C2.width=3/.height,4,unit,x%2Cy,width,5")
      parsed = try sortedJSON(request["parsed"])
      #expect(parsed == parsedPath)

      // Matrix: `;name=value`, an exploded array `;name=` per item, an exploded object
      // `;key=value` per property, else `;name=` and `,`-separated.
      try await client.call(
        Styles.showMatrices(code: 7, words: words, numbers: [1, -2], size: slash, box: comma))
      request = try await lastRequest(client, base)
      #expect(
        request["path"] as? String
          == "/matrices/;code=7/;words=a%20b;words=c%2Fd;words=e%2Ef%2Cg%3Bh%3Di/;numbers=1,-2"
          + "/;height=2;unit=m%3Bs%3D1%2C2;width=3/;box=height,4,unit,x%2Cy,width,5")
      parsed = try sortedJSON(request["parsed"])
      #expect(parsed == parsedPath)

      // Simple: the value itself; an array's items and an object's `key=value` pairs (exploded)
      // or keys and values in turn, `,`-separated.
      try await client.call(
        Styles.showSimples(code: 7, words: words, numbers: [1, -2], size: slash, box: comma))
      request = try await lastRequest(client, base)
      #expect(
        request["path"] as? String
          == "/simples/7/a%20b,c%2Fd,e%2Ef%2Cg%3Bh%3Di/1,-2"
          + "/height=2,unit=m%3Bs%3D1%2C2,width=3/height,4,unit,x%2Cy,width,5")
      parsed = try sortedJSON(request["parsed"])
      #expect(parsed == parsedPath)
      #expect(request["query"] as? String == "")

      // A query array or object in `form` not exploded: its values joined by a `,` as it is, a
      // `,` in a value `%2C` (RFC 6570), so the server splits before it decodes.
      try await client.call(
        Styles.showSimples(
          code: 7, words: ["w"], numbers: [1], size: slash, box: comma, tags: ["a,b", "c d&e"],
          near: Size(height: 1, unit: "x,y", width: 2)))
      request = try await lastRequest(client, base)
      #expect(
        request["query"] as? String == "tags=a%2Cb,c%20d%26e&near=height,1,unit,x%2Cy,width,2")
      parsed = try sortedJSON((request["parsed"] as? [String: Any])?["query"])
      #expect(
        parsed == #"{"near":{"height":1,"unit":"x,y","width":2},"tags":["a,b","c d&e"]}"#)

      // Object headers, `simple`: `key=value,…` exploded, else `key,value,…`; cookies, `form`
      // not exploded: `name=a,b`, an object's keys and values in turn. Each text value is
      // percent-encoded where a field or cookie could not hold it as it is (a `,` `;` `%`, a
      // space, a line break), so the server splits them by the style and decodes each.
      let box = Size(height: 4, width: 5)
      try await client.call(
        Styles.showMeasures(
          xBox: Size(height: 4, unit: "x,y; z", width: 5), token: "t;1 =2,3%", numbers: [1, 2],
          xSize: Size(height: 2, unit: "a=b, c\r\n", width: 3), count: 3,
          words: ["x,y", "a b;c=d"], box: Size(height: 2, unit: "p;q=r", width: 3)))
      request = try await lastRequest(client, base)
      var headers = request["headers"] as? [String: Any]
      #expect(headers?["x-size"] as? String == "height=2,unit=a=b%2C%20c%0D%0A,width=3")
      #expect(headers?["x-box"] as? String == "height,4,unit,x%2Cy%3B%20z,width,5")
      #expect(
        headers?["cookie"] as? String
          == "token=t%3B1%20=2%2C3%25; count=3; numbers=1,2; words=x%2Cy,a%20b%3Bc=d; "
          + "box=height,2,unit,p%3Bq=r,width,3")
      parsed = try sortedJSON(request["parsed"])
      #expect(
        parsed
          == #"{"cookie":{"box":{"height":2,"unit":"p;q=r","width":3},"count":3,"#
          + #""numbers":[1,2],"token":"t;1 =2,3%","words":["x,y","a b;c=d"]},"#
          + #""header":{"X-Box":{"height":4,"unit":"x,y; z","width":5},"#
          + #""X-Size":{"height":2,"unit":"a=b, c\r\n","width":3}}}"#)

      // Without the optional ones, only the required ones are sent.
      try await client.call(Styles.showMeasures(xBox: box, token: "t-2", numbers: [9]))
      request = try await lastRequest(client, base)
      headers = request["headers"] as? [String: Any]
      #expect(headers?["x-size"] == nil)
      #expect(headers?["cookie"] as? String == "token=t-2; numbers=9")
      parsed = try sortedJSON(request["parsed"])
      #expect(
        parsed
          == #"{"cookie":{"numbers":[9],"token":"t-2"},"header":{"X-Box":{"height":4,"width":5}}}"#)
    }
  }

  @Test func theLinkAndCursorPaginatorsWalkEveryPageTheServerServes() async throws {
    try await withExampleServer(
      document: "pets.json", configuration: "pets-config.json"
    ) { client, base in
      // Link: each page links to the next by a path, the request's query kept, with its
      // date-time, which the server reads as RFC 3339.
      var visits: [Visit] = []
      var pageCount = 0
      let since = Date(timeIntervalSince1970: 1_714_566_645.25)
      for try await page in client.pages(
        of: Visits.listVisits(petId: "p 1", since: since), paginator: Visits.listVisitsPaginator())
      {
        #expect(page.index == pageCount)
        visits += page.resource
        pageCount += 1
      }
      #expect(
        visits == [
          Visit(id: 1, note: "walk"), Visit(id: 2, note: "vet"), Visit(id: 3, note: "bath"),
        ])
      #expect(pageCount == 3)

      // Cursor: each page names the next page's cursor, and has_more says whether it exists;
      // the last page's cursor names none, so following it would fail the walk.
      var foods: [String] = []
      pageCount = 0
      for try await page in client.pages(
        of: Visits.listFeedings(limit: 1), paginator: Visits.listFeedingsPaginator())
      {
        foods += page.resource.items.map(\.food)
        #expect(page.resource.hasMore == (pageCount < 2))
        pageCount += 1
      }
      #expect(foods == ["fish", "meat", "rice"])
      #expect(pageCount == 3)

      // Link by an absolute URL, as the document's example shows (the server's own origin).
      var links: [String?] = []
      var walks: [String] = []
      for try await page in client.pages(
        of: Visits.listWalks(), paginator: Visits.listWalksPaginator())
      {
        walks += page.resource
        links.append(page.response.headerFields["Link"])
      }
      #expect(walks == ["park", "beach", "woods"])
      #expect(
        links == [
          "<\(base.absoluteString)/walks?page=2>; rel=\"next\"",
          "<\(base.absoluteString)/walks?page=3>; rel=\"next\"", nil,
        ])

      let (_, body) = try await client.send(
        HTTPRequest(method: .get, url: base.appending(path: "__requests")))
      let requests = try #require(
        JSONSerialization.jsonObject(with: try await body.collect()) as? [[String: Any]])
      #expect(
        requests.map { "\($0["path"] ?? "")?\($0["query"] ?? "")" } == [
          "/visits?petId=p%201&since=2024-05-01T12%3A30%3A45.250Z",
          "/visits?petId=p+1&since=2024-05-01T12%3A30%3A45.250Z&page=2",
          "/visits?petId=p+1&since=2024-05-01T12%3A30%3A45.250Z&page=3",
          "/feedings?limit=1", "/feedings?limit=1&after=page%202%2F3%2B",
          "/feedings?limit=1&after=page%203%2F3%2B", "/walks?", "/walks?page=2", "/walks?page=3",
        ])

      // A cursor the server never gave is refused.
      let (refused, refusal) = try await client.send(
        HTTPRequest(method: .get, url: try #require(URL(string: "\(base)/feedings?after=c9"))))
      #expect(refused.status == 400)
      let reason = String(decoding: try await refusal.collect(), as: UTF8.self)
      #expect(reason.contains("the cursor 'c9' names no page"), "\(reason)")
    }
  }
}

/// The last request the example server received, as it recorded it.
private func lastRequest(_ client: some HTTPClient, _ base: URL) async throws -> [String: Any] {
  let (_, body) = try await client.send(
    HTTPRequest(method: .get, url: base.appending(path: "__last")))
  let object = try JSONSerialization.jsonObject(with: try await body.collect())
  return try #require(object as? [String: Any])
}

/// `value` as JSON with its keys sorted, to compare what the server parsed as one string.
private func sortedJSON(_ value: Any?) throws -> String {
  let object = try #require(value)
  return String(
    decoding: try JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
    as: UTF8.self)
}

/// Runs `body` with a client whose requests go to the example server for `document` (and the
/// generator's `configuration`, whose pagination it serves); the server stops when `body`
/// returns or throws.
private func withExampleServer(
  document: String,
  configuration: String? = nil,
  _ body: (any HTTPClient, URL) async throws -> Void
) async throws {
  let script = testDirectory.appending(path: "../Servers/openapi_example_server.py").standardized
  // Closing its standard input stops the server.
  let server = try await ChildServer.start(
    "python3",
    [script.path, testDirectory.appending(path: "Documents/\(document)").path]
      + (configuration.map { [testDirectory.appending(path: "Documents/\($0)").path] } ?? []))
  do {
    let port = try #require(Int(server.firstLine), "the server printed \(server.firstLine)")
    let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
    let client = URLSessionHTTPClient()
    try await body(client.with(BaseURLMiddleware(base)), base)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}
