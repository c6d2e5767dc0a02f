import Foundation

extension Fixture {
  /// Reads the entries of a HAR 1.2 document (as saved by browser developer tools, Charles or
  /// Proxyman) as a fixture.
  ///
  /// Base64 response content (`"encoding": "base64"`) is decoded; an entry whose response status
  /// is 0 (no response) becomes an interaction with an error. Redact secrets before replaying
  /// a HAR from a browser: see ``redacted(by:)``.
  ///
  /// - Throws: ``TestDoubleFailure`` of kind ``TestDoubleFailure/Kind/invalidFixture`` naming
  ///   the entry and what is wrong with it.
  init(har data: Data) throws(TestDoubleFailure) {
    func fail(_ reason: String) -> TestDoubleFailure {
      .invalidFixture(file: nil, reason: "HAR: \(reason)")
    }
    guard let root = JSONTree(parsing: data) else { throw fail("it is not valid JSON") }
    guard let entries = root["log"]?["entries"]?.arrayValue else {
      throw fail(#"it has no "log.entries" array"#)
    }
    var interactions: [Interaction] = []
    for (index, entry) in entries.enumerated() {
      // An empty method is refused as the fixture format refuses it.
      guard let request = entry["request"], let method = request["method"]?.stringValue,
        !method.isEmpty, let urlText = request["url"]?.stringValue, let url = URL(string: urlText)
      else { throw fail("entry \(index + 1) has no request method and URL") }
      var requestBody = Data()
      if let text = request["postData"]?["text"]?.stringValue {
        if request["postData"]?["_encoding"]?.stringValue == "base64" {
          guard let decoded = Data(base64Encoded: text) else {
            throw fail("entry \(index + 1): the request body is not valid base64")
          }
          requestBody = decoded
        } else {
          requestBody = Data(text.utf8)
        }
      }
      let requestFields: HTTPFields
      do {
        requestFields = try Fixture.harFields(request["headers"])
      } catch {
        throw fail("entry \(index + 1): \(error.reason)")
      }
      let recordedRequest = Request(
        method: HTTPMethod(rawValue: method),
        url: url,
        headerFields: requestFields,
        body: requestBody
      )
      guard let response = entry["response"], let status = response["status"]?.intValue else {
        throw fail("entry \(index + 1) has no response status")
      }
      if status == 0 {
        let reason = response["_error"]?.stringValue ?? "no response was received"
        interactions.append(Interaction(request: recordedRequest, response: nil, error: reason))
        continue
      }
      // The versioned format accepts only these; a HAR imported and saved must read back.
      guard (100...599).contains(status) else {
        throw fail("entry \(index + 1) has no valid response status (\(status))")
      }
      var body = Data()
      if let text = response["content"]?["text"]?.stringValue {
        if response["content"]?["encoding"]?.stringValue == "base64" {
          guard let decoded = Data(base64Encoded: text) else {
            throw fail("entry \(index + 1): the response content is not valid base64")
          }
          body = decoded
        } else {
          body = Data(text.utf8)
        }
      }
      let responseFields: HTTPFields
      do {
        responseFields = try Fixture.harFields(response["headers"])
      } catch {
        throw fail("entry \(index + 1): \(error.reason)")
      }
      interactions.append(
        Interaction(
          request: recordedRequest,
          response: Response(status: status, headerFields: responseFields, body: body)
        )
      )
    }
    self.init(interactions: interactions)
  }

  /// The fixture as a HAR 1.2 document, for browser developer tools and other HTTP tools.
  ///
  /// Binary bodies are base64 (`"encoding": "base64"` on responses, `"_encoding"` on requests,
  /// as HAR has no field for it).
  func har() -> Data {
    let entries = interactions.map { interaction -> JSONTree in
      let request = interaction.request
      let query = (URLComponents(url: request.url, resolvingAgainstBaseURL: true)?.queryItems ?? [])
        .map { JSONTree.object([("name", .string($0.name)), ("value", .string($0.value ?? ""))]) }
      var requestMembers: [(String, JSONTree)] = [
        ("method", .string(request.method.rawValue)),
        ("url", .string(request.url.absoluteString)),
        ("httpVersion", .string("HTTP/1.1")),
        ("cookies", .array([])),
        ("headers", Fixture.harTree(request.headerFields)),
        ("queryString", .array(query)),
        ("headersSize", .number("-1")),
        ("bodySize", .number("\(request.body.count)")),
      ]
      if !request.body.isEmpty {
        let mime = request.headerFields["Content-Type"] ?? "application/octet-stream"
        var postData: [(String, JSONTree)] = [("mimeType", .string(mime))]
        if let text = Fixture.printableText(request.body) {
          postData.append(("text", .string(text)))
        } else {
          postData.append(("text", .string(request.body.base64EncodedString())))
          postData.append(("_encoding", .string("base64")))
        }
        requestMembers.append(("postData", .object(postData)))
      }
      let responseTree: JSONTree
      if let response = interaction.response {
        var content: [(String, JSONTree)] = [
          ("size", .number("\(response.body.count)")),
          ("mimeType", .string(response.headerFields["Content-Type"] ?? "")),
        ]
        if !response.body.isEmpty {
          if let text = Fixture.printableText(response.body) {
            content.append(("text", .string(text)))
          } else {
            content.append(("text", .string(response.body.base64EncodedString())))
            content.append(("encoding", .string("base64")))
          }
        }
        responseTree = .object([
          ("status", .number("\(response.status)")),
          ("statusText", .string(HTTPResponse.reasonPhrase(for: response.status))),
          ("httpVersion", .string("HTTP/1.1")),
          ("cookies", .array([])),
          ("headers", Fixture.harTree(response.headerFields)),
          ("content", .object(content)),
          ("redirectURL", .string(response.headerFields["Location"] ?? "")),
          ("headersSize", .number("-1")),
          ("bodySize", .number("\(response.body.count)")),
        ])
      } else {
        responseTree = .object([
          ("status", .number("0")),
          ("statusText", .string("")),
          ("httpVersion", .string("")),
          ("cookies", .array([])),
          ("headers", .array([])),
          ("content", .object([("size", .number("0")), ("mimeType", .string(""))])),
          ("redirectURL", .string("")),
          ("headersSize", .number("-1")),
          ("bodySize", .number("-1")),
          ("_error", .string(interaction.error ?? "")),
        ])
      }
      return .object([
        ("startedDateTime", .string("1970-01-01T00:00:00.000Z")),
        ("time", .number("0")),
        ("request", .object(requestMembers)),
        ("response", responseTree),
        ("cache", .object([])),
        (
          "timings",
          .object([("send", .number("0")), ("wait", .number("0")), ("receive", .number("0"))])
        ),
      ])
    }
    let root = JSONTree.object([
      (
        "log",
        .object([
          ("version", .string("1.2")),
          ("creator", .object([("name", .string("EndpointTesting")), ("version", .string("1"))])),
          ("entries", .array(entries)),
        ])
      )
    ])
    return Data((root.formatted(sortKeys: false) + "\n").utf8)
  }

  private static func harTree(_ fields: HTTPFields) -> JSONTree {
    .array(fields.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
  }

  private static func harFields(_ tree: JSONTree?) throws(FixtureCoding.Problem) -> HTTPFields {
    var fields = HTTPFields()
    for item in tree?.arrayValue ?? [] {
      guard let name = item["name"]?.stringValue, let value = item["value"]?.stringValue else {
        throw FixtureCoding.Problem(reason: "a header has no name or value")
      }
      // HTTP/2 pseudo-headers (":authority") are not fields; browsers list them anyway.
      if name.hasPrefix(":") { continue }
      do {
        try fields.append(value, for: name)
      } catch {
        throw FixtureCoding.Problem(reason: "header \(name): \(error)")
      }
    }
    return fields
  }

  private static func printableText(_ data: Data) -> String? {
    guard let text = String(validating: data, as: UTF8.self),
      !text.unicodeScalars.contains(where: {
        $0.value < 0x20 && !"\n\r\t".unicodeScalars.contains($0)
      })
    else { return nil }
    return text
  }
}
