import EndpointJSON
import EndpointTestSupport
import EndpointTransport
import Foundation
import Testing

/// The checked-in generated source (`Generated/`) called over the wire, through a real client,
/// against a server that answers the operations of the same document
/// (`Tests/Servers/openapi_example_server.py`): it refuses a request the document does not
/// allow (a missing required parameter, a body that does not match its schema) and answers
/// with the document's examples, or values made from its schemas with every property present.
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

      let health = try await client.call(API.health())
      #expect(health == ["additional": "text"])
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

/// Runs `body` with a client whose requests go to the example server for `document`; the
/// server stops when `body` returns or throws.
private func withExampleServer(
  document: String,
  _ body: (any HTTPClient, URL) async throws -> Void
) async throws {
  let script = testDirectory.appending(path: "../Servers/openapi_example_server.py").standardized
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [
    "python3", script.path, testDirectory.appending(path: "Documents/\(document)").path,
  ]
  let input = Pipe()
  let output = Pipe()
  process.standardInput = input
  process.standardOutput = output
  try process.run()
  defer {
    // Closing its standard input stops the server.
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
  let line = try #require(readLine(from: output.fileHandleForReading), "the server printed no port")
  let port = try #require(Int(line), "the server printed \(line), not a port")
  let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
  let client = URLSessionHTTPClient()
  try await body(client.with(BaseURLMiddleware(base)), base)
}

/// The first line `handle` gives, without its newline.
private func readLine(from handle: FileHandle) -> String? {
  var bytes: [UInt8] = []
  while let byte = try? handle.read(upToCount: 1), let first = byte.first {
    if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
    bytes.append(first)
  }
  return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
}
